# A testcase's history: ops/s against kernel for a few task counts of each mode, change points marked.
# Expects from plot/history.py: data blocks $s<k> (column-index mean ci) for k = 1..n_series with
# s_mode_<k>, s_dt_<k>, s_pt_<k>, s_title_<k>; change marks ch_x_<i>, ch_text_<i> for i = 1..n_changes;
# strings title_text, subtitle_text, xtics_list, unit_suffix, out_png, out_svg; numbers unit, ncols, ymax.

do for [fmt in 'png svg'] {
    reset
    load plot_dir.'/common.gp'
    eval (fmt eq 'png') ? term_png : term_svg
    set output (fmt eq 'png') ? out_png : out_svg

    set label 101 title_text at screen 0.5, screen 0.97 center font ',17'
    set label 102 subtitle_text at screen 0.5, screen 0.935 center font ',10' tc rgb '#444444'
    set tmargin at screen 0.90
    set bmargin at screen 0.20
    set lmargin at screen 0.085
    set rmargin at screen 0.74
    set xrange [-0.5:ncols - 0.5]
    eval 'set xtics ('.xtics_list.') rotate by 45 right'
    set xlabel 'kernel (the order of the history)'
    set yrange [0:ymax / unit]
    set format y '%g'.unit_suffix
    set ylabel 'operations per second (ops/s), bars: 95% CI across runs'
    set key at screen 0.755, screen 0.90 left top Left reverse samplen 4 spacing 1.3 font ',11'
    do for [i=1:n_changes] {
        set arrow i from first value('ch_x_'.i), graph 0 to first value('ch_x_'.i), graph 1 nohead dt 2 lw 1.5 lc rgb '#b00000'
        set label i value('ch_text_'.i) at first value('ch_x_'.i), graph (0.97 - 0.05 * ((i - 1) % 6)) left offset 0.4,0 \
            tc rgb '#b00000' font ',9' front
    }
    plot for [k=1:n_series] '$s'.k using 1:($2 / unit):($3 / unit) with yerrorlines \
        lc rgb mode_colour(value('s_mode_'.k)) dt value('s_dt_'.k) pt value('s_pt_'.k) ps 1.1 lw 2 \
        title value('s_title_'.k)
}
