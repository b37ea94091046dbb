/**
 * The Lua scripts of the Redis store (src/store/redis.ts). Each runs
 * atomically on the server, so one script call is one commit, one claim or
 * one reap: one network round-trip.
 *
 * Data layout 2 (meta `_layout` = 2; see docs/scale-out.md, "Key layout").
 * Every script gets the same twelve KEYS (all under one hash tag, so they live
 * in one Redis Cluster slot):
 *   1 q      zset, every score 0, members = "frontier key\turl\tjson" (lexicographic =
 *            best first; the score and seq are in the frontier key, the host in
 *            the url, the url key is the url's SHA-1; json: the rest of the
 *            entry, short names, see src/store/redis.ts compactJson): the
 *            entry travels in its member, no separate entry hash
 *   2 e      unused since layout 2 (layout 1's entry hash)
 *   3 seen   prefix of 4,096 small hashes `seen:XYZ` (XYZ: the first 3 hex digits
 *            of the urlKey, 20 hex digits of the SHA-1 of the canonical URL;
 *            field: its other 17): "q" seq (hex) "\t" score (queued or leased,
 *            under frontier key fkey(score, seq)), "d" (done by a redirect hop or a parked fetch)
 *            or "d\ttoken\tadded\traised" (done by the commit with that token,
 *            worker number # commit number, and what it answered). Values stay
 *            under 64 bytes, so each bucket is a listpack (~25 bytes a URL)
 *            while it has at most hash-max-listpack-entries fields
 *   4 log    list  committed records (JSON), in commit order
 *   5 c      hash  counters: seq, pages, errors, committed, workers
 *   6 lease  zset  frontier key -> lease expiry (ms, Redis clock)
 *   7 lw     hash  frontier key -> "worker id\nurl\tjson": the
 *                  holder of the lease and the entry while it is out of q
 *   8 ha     hash  host -> requests in flight (leases) on the host, all workers
 *   9 hn     hash  host -> earliest start of the next request to the host (ms)
 *  10 meta   hash  name -> JSON
 *  11 ct     unused since layout 2 (layout 1's commit tokens: now in seen)
 *  12 pk     hash  urlKey -> "url\tscore\tjson" of a URL parked by a commit with
 *                  retryLater (done for this run, queued again by REQUEUE_PARKED)
 * The seen buckets are not declared in KEYS: they share the hash tag, hence
 * the slot, of the declared keys.
 *
 * ARGV[1] of every script is the crawl's epoch (meta _epoch), checked
 * before anything else; the ARGV described below follow it.
 *
 * Scores travel as the client's decimal string (String(score), which
 * round-trips exactly through strtod), never through cjson.encode, which
 * keeps only 14 significant digits. Scripts validate nothing: the client
 * builds their arguments, and a script raises no error after its first
 * write (Redis does not roll a script back).
 */

const PRELUDE = `
local KQ, KE, KS, KL, KC, KLEASE, KLW, KHA, KHN, KMETA, KCT, KPK = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12]
-- ARGV[1] is the crawl's epoch as the client read it at open: if the crawl's
-- keys were lost since (a restart without persistence, FLUSHDB, --fresh),
-- refuse before writing anything rather than rebuild a partial crawl
local EPOCH = table.remove(ARGV, 1)
if redis.call('HGET', KMETA, '_epoch') ~= EPOCH then
  return redis.error_reply('FC_EPOCH the crawl state in Redis is gone or was reset (a restart without persistence, FLUSHDB or --fresh)')
end

local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- the frontier key of src/store/level.ts frontierKey(score, seq): 31 characters
local function fkey(score, seq)
  local x = 0
  if score ~= 0 then x = -score end
  local b = { string.byte(struct.pack('>d', x), 1, 8) }
  if b[1] >= 128 then
    for i = 1, 8 do b[i] = 255 - b[i] end
  else
    b[1] = b[1] + 128
  end
  local hex = {}
  for i = 1, 8 do hex[i] = string.format('%02x', b[i]) end
  return table.concat(hex) .. '!' .. string.format('%014x', seq)
end

local function seqOf(k)
  return tonumber(string.sub(k, 18, 31), 16)
end

-- an entry "url\\tjson" -> url, json
local function splitEntry(v)
  local i = string.find(v, '\\t', 1, true)
  return string.sub(v, 1, i - 1), string.sub(v, i + 1)
end

-- the host of a canonical url (src/urls/canonical.ts hostOfCanonical)
local function hostOf(url)
  return string.match(url, '//([^/]*)')
end

-- the url key of a canonical url (src/store/redis.ts redisUrlKey)
local function ukOf(url)
  return string.sub(redis.sha1hex(url), 1, 20)
end

-- a queued mark "q<seq hex>\\t<score>" -> frontier key, score string (nil for a done mark)
local function splitSeen(sv)
  local seq, s = string.match(sv, '^q(%x+)\\t(.*)$')
  if not seq then return nil, nil end
  return fkey(tonumber(s), tonumber(seq, 16)), s
end

-- the seen mark of a url key lives in one of 4,096 small hashes
local function seenGet(uk)
  return redis.call('HGET', KS .. ':' .. string.sub(uk, 1, 3), string.sub(uk, 4))
end
local function seenSet(uk, v)
  redis.call('HSET', KS .. ':' .. string.sub(uk, 1, 3), string.sub(uk, 4), v)
end
local function seenDel(uk)
  redis.call('HDEL', KS .. ':' .. string.sub(uk, 1, 3), string.sub(uk, 4))
end
local function isDone(sv)
  return sv and string.byte(sv, 1) == 100
end

-- the frontier member of key k: "k\\tv"
local function qGet(k)
  return redis.call('ZRANGE', KQ, '[' .. k .. '\\t', '[' .. k .. '\\t\\255', 'BYLEX', 'LIMIT', 0, 1)[1]
end
local function qDel(k)
  redis.call('ZREMRANGEBYLEX', KQ, '[' .. k .. '\\t', '[' .. k .. '\\t\\255')
end
-- a member -> its frontier key, its entry "url\\tjson"
local function splitMember(m)
  return string.sub(m, 1, 31), string.sub(m, 33)
end

-- the worker holding the lease on key k, and the entry (nil when no lease)
local function leaseOf(k)
  local x = redis.call('HGET', KLW, k)
  if not x then return nil, nil end
  local i = string.find(x, '\\n', 1, true)
  return string.sub(x, 1, i - 1), string.sub(x, i + 1)
end

local function counts()
  local c = redis.call('HMGET', KC, 'pages', 'errors', 'committed')
  return { tonumber(c[1] or '0'), tonumber(c[2] or '0'), tonumber(c[3] or '0'), redis.call('ZCARD', KQ) + redis.call('ZCARD', KLEASE) }
end

local function place(uk, url, s, j, seq)
  local k = fkey(tonumber(s), seq)
  redis.call('ZADD', KQ, 0, k .. '\\t' .. url .. '\\t' .. j)
  seenSet(uk, string.format('q%x\\t', seq) .. s)
  return k
end

-- queue a URL never seen; raise a queued one with a lower score (keeping
-- its seq) unless a worker holds it; skip done ones
local function enqueue(L, outcome)
  local sv = seenGet(L.uk)
  local seq
  if sv then
    if isDone(sv) then return end
    local k, s = splitSeen(sv)
    if tonumber(s) >= tonumber(L.s) then return end
    if redis.call('ZSCORE', KLEASE, k) then return end
    seq = seqOf(k)
    qDel(k)
    if not outcome[L.uk] then outcome[L.uk] = 'raised' end
  else
    seq = redis.call('HINCRBY', KC, 'seq', 1)
    outcome[L.uk] = 'added'
  end
  place(L.uk, L.u, L.s, L.j, seq)
end

-- evict the lowest-priority queued (not leased) entries beyond max (0: no limit)
local function evict(max, outcome)
  if max <= 0 then return end
  local n = redis.call('ZCARD', KQ) + redis.call('ZCARD', KLEASE)
  while n > max do
    local worst = redis.call('ZRANGE', KQ, '+', '-', 'BYLEX', 'REV', 'LIMIT', 0, 1)[1]
    if not worst then break end
    redis.call('ZREM', KQ, worst)
    local _, v = splitMember(worst)
    local uk = ukOf(splitEntry(v))
    seenDel(uk)
    outcome[uk] = nil
    n = n - 1
  end
end

-- mark a url key done (mark: "d", or the commit's "d\\ttoken\\t...")
local function markDone(uk, mark)
  local sv = seenGet(uk)
  if sv and not isDone(sv) then
    -- out of the frontier; a lease held by another worker stays (its entry
    -- is in lw): its owner's commit, or the reaper, clears it
    qDel(splitSeen(sv))
  end
  seenSet(uk, mark)
end

-- end the lease on key k: the host's slot is freed and its next request
-- waits delay ms from now; returns the entry (nil when there was no lease)
local function endLease(k, delay, now)
  if redis.call('ZREM', KLEASE, k) == 0 then return nil end
  local _, v = leaseOf(k)
  redis.call('HDEL', KLW, k)
  if v then
    local host = hostOf(splitEntry(v))
    if redis.call('HINCRBY', KHA, host, -1) <= 0 then redis.call('HDEL', KHA, host) end
    if delay > 0 then
      local nx = tonumber(redis.call('HGET', KHN, host) or '0')
      if now + delay > nx then redis.call('HSET', KHN, host, now + delay) end
    end
  end
  return v
end

-- a lease that ends without a commit: back to the frontier, unless the URL
-- is done by now (another page's redirect hop) or queued under another key
local function returnLease(k, now)
  local v = endLease(k, 0, now)
  if not v then return end
  local sv = seenGet(ukOf(splitEntry(v)))
  if sv and not isDone(sv) and splitSeen(sv) == k then
    redis.call('ZADD', KQ, 0, k .. '\\t' .. v)
  end
end

local function reap(now)
  local expired = redis.call('ZRANGEBYSCORE', KLEASE, '-inf', now, 'LIMIT', 0, 256)
  for _, k in ipairs(expired) do returnLease(k, now) end
  return #expired
end

local function countOutcome(outcome, kind)
  local n = 0
  for _, o in pairs(outcome) do if o == kind then n = n + 1 end end
  return n
end
`;

/** claimUpTo(w, n, leaseMs, perHost, maxPages, scan, poll, now) -> status, waitMs, {key, value, ...} (see CLAIM) */
const CLAIM_FN = `
local function claimUpTo(w, n, leaseMs, perHost, maxPages, scan, poll, now)
  local leased = redis.call('ZCARD', KLEASE)
  if maxPages > 0 then
    local pages = tonumber(redis.call('HGET', KC, 'pages') or '0')
    if pages >= maxPages then return 'done', 0, {} end
    if maxPages - pages - leased < n then n = maxPages - pages - leased end
    if n <= 0 then return 'wait', poll, {} end
  end
  if redis.call('ZCARD', KQ) == 0 then
    if leased == 0 then return 'done', 0, {} end
    return 'wait', poll, {}
  end
  local got = {}
  local taken = 0
  -- how long until a claim may succeed: the nearest politeness delay, or the
  -- poll interval when a host is busy in a worker or the scan did not see all
  local wait = nil
  local busy = false
  local active = {}
  -- read the frontier in chunks: a claim usually takes the first few URLs,
  -- and every member read is copied (it carries its entry)
  local chunk = math.min(scan, math.max(16, 2 * n))
  local members = redis.call('ZRANGE', KQ, '-', '+', 'BYLEX', 'LIMIT', 0, chunk)
  local seen, i = #members, 1
  if seen >= scan then busy = true end
  while i <= #members do
    local m = members[i]
    i = i + 1
    local k, v = splitMember(m)
    local host = hostOf(splitEntry(v))
    local a = active[host]
    if a == nil then a = tonumber(redis.call('HGET', KHA, host) or '0') end
    active[host] = a
    local nx = tonumber(redis.call('HGET', KHN, host) or '0')
    if a < perHost and nx <= now then
      if nx > 0 then redis.call('HDEL', KHN, host) end
      redis.call('ZREM', KQ, m)
      redis.call('ZADD', KLEASE, now + leaseMs, k)
      redis.call('HSET', KLW, k, w .. '\\n' .. v)
      redis.call('HINCRBY', KHA, host, 1)
      active[host] = a + 1
      got[#got + 1] = k
      got[#got + 1] = v
      taken = taken + 1
      if taken >= n then break end
    elseif a < perHost then
      if wait == nil or nx - now < wait then wait = nx - now end
    else
      busy = true
    end
    if i > #members and #members == chunk and seen < scan then
      -- the next chunk after the last member read (taken ones left q: the
      -- range starts after m, exclusive)
      local more = math.min(chunk, scan - seen)
      members = redis.call('ZRANGE', KQ, '(' .. m, '+', 'BYLEX', 'LIMIT', 0, more)
      seen = seen + #members
      i = 1
      if seen >= scan then busy = true end
      chunk = more
    end
  end
  if taken > 0 then return 'ok', 0, got end
  if wait == nil or (busy and poll < wait) then wait = poll end
  return 'wait', wait, got
end
`;

/** ARGV[1]: JSON {links: [{uk, u (url), s, j}], max}. Returns {added, ...counts}. */
export const ADD_SEEDS = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local outcome = {}
for _, L in ipairs(a.links) do enqueue(L, outcome) end
evict(a.max, outcome)
local r = { countOutcome(outcome, 'added') }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;

/**
 * ARGV[1]: JSON {w: worker, t: token, lk: lease key or "", delay, done: [uk],
 * links: [{uk, u, s, j}], page: 0|1, err: 0|1, max, replay?: 1,
 * claim?: {n, leaseMs, perHost, maxPages, scan, poll},
 * park?: {u, s, j} (retryLater: done[1] is also parked)}; ARGV[2]: the
 * record (JSON text).
 * Returns {added, raised, ...counts, duplicate, claim status ('none' without
 * `claim`), waitMs, key1, value1, ...}: with `claim`, the worker's next URLs
 * are claimed in the same call (see CLAIM). A URL that is done already
 * (fetched by a worker whose lease had expired, or a redirect hop of another
 * page) is not committed again: only its lease ends (duplicate = 1).
 *
 * The token `t` names one commit attempt (worker id and the worker's commit
 * number): the script is idempotent per token. The same call applied twice
 * (ioredis re-sends a command whose reply a Redis restart swallowed; a
 * worker re-sends, after a restart, commits Redis may have lost: `replay`)
 * finds its URL done by its own token and answers what it answered the first
 * time (duplicate = 0: the record is the worker's to print), writing nothing
 * again; a replay (duplicate = 2 when done by another token) claims nothing.
 */
export const COMMIT = `${PRELUDE}${CLAIM_FN}
local a = cjson.decode(ARGV[1])
local now = nowMs()
if a.lk ~= '' and leaseOf(a.lk) == a.w then endLease(a.lk, a.delay, now) end
local ct = seenGet(a.done[1])
if isDone(ct) then
  local mine = string.sub(ct, 1, #a.t + 3) == 'd\t' .. a.t .. '\t'
  local r = { 0, 0 }
  if mine then
    local added, raised = string.match(ct, '\t(%d+)\t(%d+)$')
    r = { tonumber(added), tonumber(raised) }
  end
  for _, x in ipairs(counts()) do r[#r + 1] = x end
  local status, waitMs, got = 'none', 0, {}
  if mine then
    r[#r + 1] = 0
    -- the first application's reply was lost, and with it the URLs it claimed
    -- (their leases expire); claim again what the worker asks for now
    if a.claim and not a.replay then
      reap(now)
      status, waitMs, got = claimUpTo(a.w, a.claim.n, a.claim.leaseMs, a.claim.perHost, a.claim.maxPages, a.claim.scan, a.claim.poll, now)
    end
  elseif a.replay then
    r[#r + 1] = 2
  else
    r[#r + 1] = 1
  end
  r[#r + 1] = status
  r[#r + 1] = waitMs
  for _, x in ipairs(got) do r[#r + 1] = x end
  return r
end
for _, uk in ipairs(a.done) do markDone(uk, 'd') end
if a.park then redis.call('HSET', KPK, a.done[1], a.park.u .. '\t' .. a.park.s .. '\t' .. a.park.j) end
local outcome = {}
for _, L in ipairs(a.links) do enqueue(L, outcome) end
evict(a.max, outcome)
redis.call('RPUSH', KL, ARGV[2])
redis.call('HINCRBY', KC, 'committed', 1)
if a.page == 1 then redis.call('HINCRBY', KC, 'pages', 1) end
if a.err == 1 then redis.call('HINCRBY', KC, 'errors', 1) end
local added, raised = countOutcome(outcome, 'added'), countOutcome(outcome, 'raised')
seenSet(a.done[1], 'd\t' .. a.t .. '\t' .. added .. '\t' .. raised)
-- claim the worker's next URLs in the same round-trip
local status, waitMs, got = 'none', 0, {}
if a.claim and not a.replay then
  reap(now)
  status, waitMs, got = claimUpTo(a.w, a.claim.n, a.claim.leaseMs, a.claim.perHost, a.claim.maxPages, a.claim.scan, a.claim.poll, now)
end
local r = { added, raised }
for _, x in ipairs(counts()) do r[#r + 1] = x end
r[#r + 1] = 0
r[#r + 1] = status
r[#r + 1] = waitMs
for _, x in ipairs(got) do r[#r + 1] = x end
return r
`;

/**
 * ARGV[1]: JSON {w, lk, delay, uk, u, s, j, attempts (0: none), max}.
 * Puts the URL back in the frontier with its attempt count. Returns counts.
 */
export const RETRY = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local now = nowMs()
local mine = a.lk ~= '' and leaseOf(a.lk) == a.w
local lv = nil
if mine then lv = endLease(a.lk, a.delay, now) end
local sv = seenGet(a.uk)
local outcome = {}
if isDone(sv) then
  -- done meanwhile (a redirect hop of another page): the entry went with the lease
elseif sv then
  local k = splitSeen(sv)
  -- the entry: from the lease this worker just ended, or from the frontier
  -- (its lease was reaped); left alone while another worker holds it
  local v = nil
  if k == a.lk and lv then
    v = lv
  else
    local m = qGet(k)
    if m then
      redis.call('ZREM', KQ, m)
      local _, mv = splitMember(m)
      v = mv
    end
  end
  if v then
    local url, j = splitEntry(v)
    local e = cjson.decode(j)
    if a.attempts > 0 then e.n = a.attempts else e.n = nil end
    redis.call('ZADD', KQ, 0, k .. '\\t' .. url .. '\\t' .. cjson.encode(e))
  end
else
  place(a.uk, a.u, a.s, a.j, redis.call('HINCRBY', KC, 'seq', 1))
end
evict(a.max, outcome)
return counts()
`;

/**
 * ARGV[1]: JSON {max}. Queues again every parked URL that is still done
 * (new seq, no attempts), then empties the parked set. Returns {queued, ...counts}.
 */
export const REQUEUE_PARKED = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local all = redis.call('HGETALL', KPK)
local queued = 0
for i = 1, #all, 2 do
  local uk, v = all[i], all[i + 1]
  local url, s, j = string.match(v, '^([^\t]*)\t([^\t]*)\t(.*)$')
  if url and isDone(seenGet(uk)) then
    place(uk, url, s, j, redis.call('HINCRBY', KC, 'seq', 1))
    queued = queued + 1
  end
end
redis.call('DEL', KPK)
evict(a.max, {})
local r = { queued }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;

/** ARGV[1]: JSON {ups: [{uk, s}]}. Returns {moved, ...counts}. */
export const REPRIORITISE = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local moved = 0
for _, u in ipairs(a.ups) do
  local sv = seenGet(u.uk)
  if sv and not isDone(sv) then
    local k, s = splitSeen(sv)
    if tonumber(s) ~= tonumber(u.s) and not redis.call('ZSCORE', KLEASE, k) then
      local m = qGet(k)
      if m then
        redis.call('ZREM', KQ, m)
        local _, v = splitMember(m)
        local url, j = splitEntry(v)
        place(u.uk, url, u.s, j, seqOf(k))
        moved = moved + 1
      end
    end
  end
end
local r = { moved }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;

/**
 * Claim up to n URLs for worker w: reap expired leases, then walk the best
 * `scan` frontier entries and lease each whose host has fewer than perHost
 * requests in flight (all workers) and whose next-request time has come,
 * at most (maxPages - pages - leases) of them when maxPages > 0.
 * ARGV: w, n, leaseMs, perHost, maxPages (0: none), scan, pollMs.
 * Returns {status ('ok' | 'wait' | 'done'), waitMs, pages, errors,
 * committed, frontierSize, key1, value1, key2, value2, ...}.
 */
export const CLAIM = `${PRELUDE}${CLAIM_FN}
local w, n, leaseMs, perHost, maxPages, scan, poll = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local now = nowMs()
reap(now)
local status, waitMs, got = claimUpTo(w, n, leaseMs, perHost, maxPages, scan, poll, now)
local r = { status, waitMs }
for _, x in ipairs(counts()) do r[#r + 1] = x end
for _, x in ipairs(got) do r[#r + 1] = x end
return r
`;

/** ARGV: w, leaseMs, key... Extends worker w's leases on the keys. Returns how many it still held. */
export const RENEW = `${PRELUDE}
local now = nowMs()
local held = 0
for i = 3, #ARGV do
  local k = ARGV[i]
  if leaseOf(k) == ARGV[1] and redis.call('ZSCORE', KLEASE, k) then
    redis.call('ZADD', KLEASE, 'XX', now + tonumber(ARGV[2]), k)
    held = held + 1
  end
end
return held
`;

/** ARGV: w, key... Returns worker w's leases on the keys to the frontier (a worker that stops). Returns counts. */
export const RELEASE = `${PRELUDE}
local now = nowMs()
for i = 2, #ARGV do
  local k = ARGV[i]
  if leaseOf(k) == ARGV[1] then returnLease(k, now) end
end
return counts()
`;

/** No arguments: reap expired leases now. Returns {reaped, ...counts}. */
export const REAP = `${PRELUDE}
local r = { reap(nowMs()) }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;

/** ARGV: gt ("" for the start), limit. Returns {key1, value1, ...} of the frontier (not leased), best first. */
export const PAGE = `${PRELUDE}
local from = '-'
-- after every member of key gt ("gt\\t..." sorts below "gt\\t\\255")
if ARGV[1] ~= '' then from = '(' .. ARGV[1] .. '\\t\\255' end
local members = redis.call('ZRANGE', KQ, from, '+', 'BYLEX', 'LIMIT', 0, tonumber(ARGV[2]))
local r = {}
for _, m in ipairs(members) do
  local k, v = splitMember(m)
  r[#r + 1] = k
  r[#r + 1] = v
end
return r
`;

/** No arguments: counts only. */
export const COUNTS = `${PRELUDE}
return counts()
`;
