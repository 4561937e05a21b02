# One run's scaling curve as text, for a terminal over ssh (gnuplot's dumb terminal).
# Expects the same data blocks and variables as scaling.gp, plus cols and rows.

set terminal dumb size cols, rows noenhanced
set output
unset grid
set border 3
set tics nomirror scale 0.5
set title title_text.'  (ops/s against tasks)'
if (logx) { set logscale x 2 }
set xrange [xmin:xmax]
if (strlen(xtics_list) > 0) { eval 'set xtics ('.xtics_list.')' } else { set xtics add (xmax_point) }
set xlabel 'tasks'
set yrange [0:ymax / unit]
set format y '%g'.unit_suffix
set key top left Left reverse
if (oversub_x > 0) {	# the oversubscribed region: a line where it starts, and its name
    set arrow 30 from first oversub_x, graph 0 to first oversub_x, graph 1 nohead lt 0
    if (oversub_inside) {
        set label 30 oversub_text at first oversub_x, graph 0.97 left offset 1,0 front
    } else {
        set label 30 oversub_text.' ->|' at first oversub_x, graph 0.97 right offset -1,0 front
    }
}
mode_char(m) = (m eq 'threads') ? 'T' : 'P'
mode_lt(m) = (m eq 'threads') ? 2 : 1
plot for [i=1:has_linear] (has_linear ? '$linear' : '$none') using 1:($2 / unit) with lines lt 0 title 'linear', \
     for [m in modes] '$'.m using 1:($2 / unit) with linespoints lt mode_lt(m) pt mode_char(m) title m
