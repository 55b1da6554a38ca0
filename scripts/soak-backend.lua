-- wrk script for scripts/soak.sh: rotates through valid, invalid and refused backend
-- requests, and stops each thread after its share of the request count, so a soak is
-- "N requests" rather than "N seconds". Arguments (after --): total requests, threads,
-- and a folder where each thread leaves a file when done: wrk itself only ends after its
-- duration or SIGINT, so soak.sh sends SIGINT once every thread has left its file.
local requests = {}
local counter = 0
local limit = 0
local doneFolder = nil
-- Globals, so done() can read them from each thread with thread:get.
statuses = {}
answered = 0

local token = "e3b53618dc34756b82873ffe5b4214615ebad4f51fb3bc4f447d0327be70eb5"
local registration = '{"platform":"ios","environment":"production","appVersion":"4.2.0",' ..
  '"publicKey":"BHz6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lNUyWzX/mOHnSQMMR2p3XiCV2BEcdEbBO2VTsf1d3ie/Y="}'
local auth = { ["Authorization"] = "Bearer soak", ["Content-Type"] = "application/json" }

function init(args)
  local total = tonumber(args[1]) or 1000
  local threads = tonumber(args[2]) or 1
  limit = math.floor(total / threads)
  doneFolder = args[3]
  -- Valid: register (16 tokens, so the device table stays small), delete, opened.
  for i = 0, 15 do
    table.insert(requests, wrk.format("PUT", "/v1/devices/" .. token .. string.format("%x", i), auth, registration))
  end
  table.insert(requests, wrk.format("DELETE", "/v1/devices/" .. token .. "0", auth))
  table.insert(requests, wrk.format("POST", "/v1/notifications/91/opened", auth, '{"action":"open"}'))
  -- Invalid: JSON syntax error, contract violation, bad path parameter, no bearer,
  -- unknown route, wrong method, a body that is not JSON at all.
  table.insert(requests, wrk.format("PUT", "/v1/devices/" .. token .. "1", auth, '{"platform":"ios",'))
  table.insert(requests, wrk.format("PUT", "/v1/devices/" .. token .. "2", auth, '{"platform":"android","extra":1}'))
  table.insert(requests, wrk.format("PUT", "/v1/devices/not-hex!", auth, registration))
  table.insert(requests, wrk.format("PUT", "/v1/devices/" .. token .. "3", { ["Content-Type"] = "application/json" }, registration))
  table.insert(requests, wrk.format("GET", "/v1/nowhere", auth))
  table.insert(requests, wrk.format("PATCH", "/v1/devices/" .. token .. "4", auth, registration))
  table.insert(requests, wrk.format("POST", "/v1/notifications/91/opened", auth, "\0\1\2 not json"))
  counter = math.random(#requests) - 1
end

function request()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end

function response(status, headers, body)
  answered = answered + 1
  statuses[status] = (statuses[status] or 0) + 1
  if answered == limit then
    if doneFolder then
      local file = io.open(doneFolder .. "/thread-" .. tostring(id), "w")
      if file then file:close() end
    end
    wrk.thread:stop()
  end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

-- Printed for soak.sh: one "responses N" line and one "status CODE N" line per status.
function done(summary, latency, requests)
  local total = 0
  local byStatus = {}
  for _, thread in ipairs(threads) do
    total = total + thread:get("answered")
    for code, count in pairs(thread:get("statuses")) do
      byStatus[code] = (byStatus[code] or 0) + count
    end
  end
  io.write(string.format("responses %d\n", total))
  io.write(string.format("wrk-requests %d\n", summary.requests))
  for code, count in pairs(byStatus) do
    io.write(string.format("status %d %d\n", code, count))
  end
  io.write(string.format("errors connect=%d read=%d write=%d timeout=%d status=%d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
end
