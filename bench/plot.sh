#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Draw the benchmark's ratios against their targets with gnuplot.
#   bench/plot.sh RESULTS.json OUT.png
# One bar per row of the table (not the breakdown): ncsync / baseline on a
# log scale, drawn from 1, green when the row meets its target, red when it
# misses; the black dash is the target.  Rows marked (>=) are rates, whose
# target is a floor; the others are times, whose target is a ceiling.
set -eu

[ $# -eq 2 ] || { echo "usage: $0 RESULTS.json OUT.png" >&2; exit 2; }
command -v gnuplot >/dev/null ||
	{ echo "$0: gnuplot not found (tools/install-deps)" >&2; exit 1; }

in=$1
out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$in" "$tmp/rows.dat" "$tmp/title" "$tmp/range" <<'PY'
import json
import sys

res = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as f:
    rows = [r for r in res["rows"] if not r.get("info")]
    for i, r in enumerate(rows):
        label = r["key"] + (" (>=)" if r["higher_is_better"] else "")
        color = "0x2ca02c" if r["pass"] else "0xd62728"
        f.write('%d "%s" %g %g %s %g %g\n'
                % (i, label, r["ratio"], r["target"], color,
                   min(1, r["ratio"]), max(1, r["ratio"])))
vals = [v for r in rows for v in (r["ratio"], r["target"])]
with open(sys.argv[4], "w") as f:
    f.write("%g:%g" % (min(vals + [1]) / 3, max(vals + [1]) * 3))
with open(sys.argv[3], "w") as f:
    f.write("ncsync / baseline, median of %d (%s)\\n%s"
            % (res["reps"], res["date"], res["machine"]))
PY

gnuplot <<EOF2
set terminal pngcairo size 1100,620 font "DejaVu Sans,10"
set output "$out"
set title "$(cat "$tmp/title")"
set logscale y
set ylabel "ratio ncsync / baseline (log)"
set yrange [$(cat "$tmp/range")]
set style fill solid 0.8 noborder
set xtics rotate by -30 noenhanced
set grid ytics
set key top left
set xrange [-0.7:*]
plot "$tmp/rows.dat" using 1:3:(\$1-0.3):(\$1+0.3):6:7:5:xtic(2) \
	with boxxyerror lc rgb variable notitle, \
     NaN with boxes lc rgb "#2ca02c" title "meets its target", \
     NaN with boxes lc rgb "#d62728" title "misses its target", \
     "" using (\$1-0.4):4:(0.8):(0) with vectors nohead lw 3 lc rgb "black" \
	title "target", \
     "" using 1:(\$3 < 1 ? \$3 / 1.35 : \$3 * 1.3):(sprintf("%.2fx", \$3)) \
	with labels notitle
EOF2
echo "plot.sh: wrote $out"
