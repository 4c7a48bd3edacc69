-- ship.lua FILE: "item qty price" lines; prints each order split into
-- two shipments of half the quantity
local n = 0
for line in io.lines(arg[1]) do
  n = n + 1
  local item, qty, price = line:match("^(%S+) (%d+) (%d+)$")
  local half = tonumber(qty) / 2
  io.write(string.format("%-12s %6d %8d\n", item, half, price))
end
io.write(("%d orders\n"):format(n))
