# The oversubscribed region of a run's chart: task counts above the cores (or PUs) in use, shaded and labelled.
# Loaded by scaling.gp before each plot; plot.py sets oversub_x (0: nothing to mark), oversub_text
# and oversub_inside (1: the label fits inside the region, 0: it goes against the right edge).

if (oversub_x > 0) {
    set object 30 rect from first oversub_x, graph 0 to graph 1, graph 1 back \
        fillcolor rgb '#f4e4e4' fillstyle solid 1.0 noborder
    set arrow 30 from first oversub_x, graph 0 to first oversub_x, graph 1 nohead lc rgb '#a04040' lw 1.2 dt 2 back
    if (oversub_inside) {
        set label 30 oversub_text at first oversub_x, graph 0.975 left offset 0.8,0 front tc rgb '#8a2a2a' font ',11'
    } else {
        set label 30 oversub_text at graph 0.99, graph 0.975 right front tc rgb '#8a2a2a' font ',11'
    }
}
