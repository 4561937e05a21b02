# Several runs of one test on one chart, and below it each run's change against the first.
# Expects from plot.py: data blocks $s<k> (tasks mean ci) for k = 1..n_series with
# s_mode_<k>, s_run_<k>; r_title_<i> for each run i = 1..n_runs (the legend: a run's dashes and
# points in grey, then each mode of modes_list in its colour); key_probe (testing: the legend boxed); $rel<k> (tasks pct lo hi) for k = 1..n_rel with
# rel_mode_<k>, rel_run_<k>; strings title_text, subtitle_text, unit_suffix, xtics_list,
# rel_text, out_png, out_svg; numbers unit, logx, xmin, xmax, ymax, rel_ymin, rel_ymax, xmax_point (the largest task count),
# key_x (the legend's room starts there, screen fraction; the legend's right edge is at 0.985), top (top of the upper panel); oversub_x,
# oversub_text, oversub_inside for plot/oversub.gp (the oversubscribed region, when the runs agree on it).

do for [fmt in 'png svg'] {
    reset
    load plot_dir.'/common.gp'
    eval (fmt eq 'png') ? term_png : term_svg
    set output (fmt eq 'png') ? out_png : out_svg

    set multiplot
    set label 101 title_text at screen 0.5, screen 0.97 center font ',17'
    set label 102 subtitle_text at screen 0.5, screen 0.935 center font ',10' tc rgb '#444444'
    set lmargin at screen 0.085
    set rmargin at screen key_x - 0.02

    # ---- upper panel: absolute throughput ----
    set tmargin at screen top
    set bmargin at screen 0.40
    if (logx) { set logscale x 2 }
    set xrange [xmin:xmax]
    if (strlen(xtics_list) > 0) { eval 'set xtics ('.xtics_list.')' } else { set xtics add (xmax_point) }
    set format x ''
    set yrange [0:ymax / unit]
    set format y '%g'.unit_suffix
    set ytics add ('0' 0)
    set ylabel 'operations per second (ops/s)'
    # anchored by its right edge: whatever gnuplot makes of the titles' width, the box stays in
    set key at screen 0.985, screen top right top Left reverse samplen 4 spacing 1.3 font ',11'
    if (exists('key_probe')) { set key box lc rgb '#ff00ff' lw 1 }
    load plot_dir.'/oversub.gp'	# the oversubscribed region: shaded in both panels, named in this one
    plot for [k=1:n_series] '$s'.k using 1:($2 / unit):($3 / unit) with yerrorlines \
        lc rgb mode_colour(value('s_mode_'.k)) dt run_dt(value('s_run_'.k)) \
        pt run_pt(value('s_run_'.k)) ps 1.1 lw 2 notitle, \
        for [i=1:n_runs] 1/0 with linespoints lc rgb '#555555' dt run_dt(i) pt run_pt(i) ps 1.1 lw 2 \
        title value('r_title_'.i), \
        for [m in modes_list] 1/0 with lines lc rgb mode_colour(m) lw 6 title m
    unset label

    # ---- lower panel: change against the first run, 95% CI shaded ----
    set tmargin at screen 0.365
    set bmargin at screen 0.08
    set format x '%g'
    set xlabel 'tasks'
    set yrange [rel_ymin:rel_ymax]
    set format y '%+g%%'
    set ytics add ('0%%' 0)
    set ylabel 'change vs first run (%)'
    set xzeroaxis lt 1 lc rgb '#000000' lw 1.5
    unset key
    set label 103 rel_text at graph 0.01, graph 0.94 left front boxed font ',11'
    if (n_rel > 0) {
        plot for [k=1:n_rel] '$rel'.k using 1:3:4 with filledcurves \
                fs transparent solid 0.18 noborder lc rgb mode_colour(value('rel_mode_'.k)) notitle, \
             for [k=1:n_rel] '$rel'.k using 1:2 with linespoints \
                lc rgb mode_colour(value('rel_mode_'.k)) dt run_dt(value('rel_run_'.k)) \
                pt run_pt(value('rel_run_'.k)) ps 1.1 lw 2 notitle
    } else {
        set label 104 'no task count in common with the first run' at graph 0.5, graph 0.5 center
        plot 1/0 notitle
    }
    unset multiplot
    set output
}
