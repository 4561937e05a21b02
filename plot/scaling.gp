# The two charts of one run: scaling (throughput and idle against tasks) and ops/s per task.
# Expects from plot.py: data blocks $processes / $threads (tasks mean ci idle) for each
# name in `modes`, $linear (tasks ops/s), $peak_<mode> (tasks ops/s); strings title_text,
# subtitle_text, modes, idle_modes (the modes with idle figures), unit_suffix,
# unit_suffix_pt, xtics_list, out_scaling_png/svg, out_pertask_png/svg, peak_text_<mode>,
# peak_align_<mode>, failed_text; numbers unit, unit_pt, has_linear, logx, xmin, xmax,
# xmax_point (the largest task count), ymax, ymax_pt, peak_dx_<mode>, peak_dy_<mode>, failed_x (tasks of the point that
# failed, 0 if none); oversub_x, oversub_text, oversub_inside for plot/oversub.gp (the oversubscribed region).
# The marks of issue 23 (plot.py's marks_prelude): strings plateau_modes,
# added_modes, unmet_modes and for each mode they name a block $plateau_<mode> (best mean lo hi),
# $added_<mode> or $unmet_<mode> (tasks mean).

c_unmet = '#b00020'
mark_block(kind, list, i) = (i >= 1 && i <= words(list)) ? '$'.kind.'_'.word(list, i) : '$none'

do for [fmt in 'png svg'] {
    # ---- scaling: throughput on the left axis, idle % on the right ----
    reset
    load plot_dir.'/common.gp'
    eval (fmt eq 'png') ? term_png : term_svg
    set output (fmt eq 'png') ? out_scaling_png : out_scaling_svg

    set tmargin 6.5
    set rmargin 10
    set label 101 title_text at screen 0.5, screen 0.965 center font ',17'
    set label 102 subtitle_text at screen 0.5, screen 0.925 center font ',11' tc rgb '#444444'
    if (logx) { set logscale x 2 }
    set xrange [xmin:xmax]
    if (strlen(xtics_list) > 0) { eval 'set xtics ('.xtics_list.')' } else { set xtics add (xmax_point) }
    set xlabel 'tasks (processes or threads running the testcase at once)'
    set yrange [0:ymax / unit]
    set format y '%g'.unit_suffix
    set ytics add ('0' 0)
    set ylabel 'operations per second (ops/s, mean with 95% CI)'
    set y2range [0:100]
    if (words(idle_modes) > 0) {
        set y2tics 0, 20, 100 format '%g%%'
        set my2tics 2
        set y2label 'idle % of the machine (dotted lines)'
    } else {
        set rmargin 5
    }
    set key outside below center horizontal Left reverse maxcols 3 width 3 height 1 samplen 3

    load plot_dir.'/oversub.gp'
    if (failed_x > 0) {
        set arrow 20 from first failed_x, graph 0 to first failed_x, graph 1 nohead lc rgb '#b00020' lw 1.5 dt 4 back
        set label 20 failed_text at first failed_x, graph 0.03 left offset 0.6,0 front boxed tc rgb '#b00020' font ',11'
    }
    # the peak labels go behind the curves: their box would hide the lines near a peak at the
    # edge (a sweep of 2 or 4 counts), and a curve crossing a label costs less than a lost point
    do for [m in modes] {
        tag = (m eq 'threads') ? 12 : 11
        eval sprintf("set label %d peak_text_%s at first peak_x_%s, first peak_y_%s / unit %s offset %g,%g back boxed tc rgb mode_colour('%s') font ',12'", \
            tag, m, m, m, value('peak_align_'.m), value('peak_dx_'.m), value('peak_dy_'.m), m)
    }

    plot for [i=1:has_linear] (has_linear ? '$linear' : '$none') using 1:($2 / unit) with lines lc rgb c_linear lw 1.5 dt 2 \
            title 'linear: best 1-task ops/s × tasks', \
         for [m in modes] '$'.m using 1:($2 / unit):($3 / unit) with yerrorlines \
            lc rgb mode_colour(m) lw 2.2 pt mode_pt(m) ps 1.1 title m.' ops/s', \
         for [i=1:words(idle_modes)] block(idle_modes, i) using 1:4 axes x1y2 with linespoints \
            lc rgb mode_colour(word(idle_modes, i)) lw 1.3 dt 3 pt idle_pt(word(idle_modes, i)) ps 0.9 \
            title word(idle_modes, i).' idle %', \
         for [m in modes] '$peak_'.m using 1:($2 / unit) with points \
            lc rgb mode_colour(m) pt 6 ps 3.2 lw 2 notitle, \
         for [i=1:words(plateau_modes)] mark_block('plateau', plateau_modes, i) using 1:($2 / unit):3:4 \
            with xerrorbars lc rgb mode_colour(word(plateau_modes, i)) lw 3 pt 0 \
            title word(plateau_modes, i).' peak plateau (within the 95% interval)', \
         for [i=1:words(added_modes)] mark_block('added', added_modes, i) using 1:($2 / unit) with points \
            lc rgb mode_colour(word(added_modes, i)) pt 12 ps 2.6 lw 2 \
            title (i == 1 ? 'count added by --points auto' : ''), \
         for [i=1:words(unmet_modes)] mark_block('unmet', unmet_modes, i) using 1:($2 / unit) with points \
            lc rgb c_unmet pt 2 ps 2.0 lw 2 title (i == 1 ? 'precision target not reached' : '')
    set output

    # ---- per task: ops/s divided by tasks; perfect scaling is flat ----
    reset
    load plot_dir.'/common.gp'
    eval (fmt eq 'png') ? term_png : term_svg
    set output (fmt eq 'png') ? out_pertask_png : out_pertask_svg

    set tmargin 6.5
    set rmargin 5
    set label 101 title_text.' — ops/s per task' at screen 0.5, screen 0.965 center font ',17'
    set label 102 subtitle_text at screen 0.5, screen 0.925 center font ',11' tc rgb '#444444'
    if (logx) { set logscale x 2 }
    set xrange [xmin:xmax]
    if (strlen(xtics_list) > 0) { eval 'set xtics ('.xtics_list.')' } else { set xtics add (xmax_point) }
    set xlabel 'tasks (processes or threads running the testcase at once)'
    set yrange [0:ymax_pt / unit_pt]
    set format y '%g'.unit_suffix_pt
    set ytics add ('0' 0)
    set ylabel 'operations per second per task (ops/s ÷ tasks)'
    set key outside below center horizontal Left reverse maxcols 3 width 3 height 1 samplen 3
    load plot_dir.'/oversub.gp'

    plot for [i=1:has_linear] (has_linear ? '$linear' : '$none') using 1:($2 / $1 / unit_pt) with lines lc rgb c_linear lw 1.5 dt 2 \
            title 'perfect scaling (best 1-task ops/s)', \
         for [m in modes] '$'.m using 1:($2 / $1 / unit_pt):($3 / $1 / unit_pt) with yerrorlines \
            lc rgb mode_colour(m) lw 2.2 pt mode_pt(m) ps 1.1 title m.' ops/s per task ('.((m eq 'threads') ? 'per_thread_ops' : 'per_process_ops').')'
    set output
}
