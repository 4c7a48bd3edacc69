// readings.js - the mujs-toint32 case's script (benchmark code): sensor
// readings go on the wire as whole numbers, truncated toward zero with
// `x | 0` (ECMAScript ToInt32); each is checked against the value the
// protocol expects. Exit 0 when all match; the first mismatch is printed
// and the script quits with status 1.
var readings = [12.75, 3.5, 21.0, 7.9, -0.25, -7.5, 100.01];
var want = [12, 3, 21, 7, 0, -7, 100];
for (var i = 0; i < readings.length; i++) {
	var v = readings[i] | 0;
	if (v !== want[i]) {
		print("reading " + i + ": " + readings[i] + " -> " + v + ", want " + want[i]);
		quit(1);
	}
}
print("all " + readings.length + " readings truncated");
