-- sum.lua FILE: sums the second field of "name;value" lines, stops at
-- the first value that is not a Lua numeral (tonumber gives nil)
local f = assert(io.open(arg[1]))
local sum, n = 0, 0
for line in f:lines() do
  n = n + 1
  local name, text = line:match("^(%w+);(.*)$")
  local v = tonumber(text)
  if not v then
    io.stderr:write(("line %d (%s): not a number: %q\n"):format(n, name, text))
    os.exit(1)
  end
  sum = sum + v
end
print(("%d values, sum %.6g"):format(n, sum))
