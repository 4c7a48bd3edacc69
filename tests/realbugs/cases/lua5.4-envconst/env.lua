local _ENV <const> = "abc"
return len
