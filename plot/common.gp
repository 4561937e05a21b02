# Look shared by every scalebench chart: a mode has the same colour everywhere.
# plot.py loads this after its prelude (data blocks and variables), before a chart script.

c_processes = '#0072b2'
c_threads = '#d55e00'
c_linear = '#6e6e6e'
c_grid = '#dcdcdc'
mode_colour(m) = (m eq 'threads') ? c_threads : c_processes
# Solid circles for processes, solid squares for threads, in the per-run charts.
mode_pt(m) = (m eq 'threads') ? 5 : 7
idle_pt(m) = (m eq 'threads') ? 4 : 6

# In a comparison, the run (not the mode) picks the dash pattern and the point shape.
run_dt(i) = word('1 2 4 5 3 1 2 4', (i - 1) % 8 + 1) + 0
run_pt(i) = word('7 4 9 12 11 14 5 6', (i - 1) % 8 + 1) + 0

# gnuplot reads the data of a plot element even when its iteration is empty (for [i=1:0]):
# such elements name this harmless block instead of one that does not exist or is empty.
$none << EOD
1 0 0 0
EOD
block(list, i) = (i >= 1 && i <= words(list)) ? '$'.word(list, i) : '$none'

# Plain text everywhere: labels, hosts and kernels come from files and may hold _ ^ { }.
png_size = '1200,800'
term_png = "set terminal pngcairo size ".png_size." font 'sans,12' noenhanced linewidth 1.2"
term_svg = "set terminal svg size ".png_size." font 'sans,12' noenhanced linewidth 1.2 background '#ffffff'"

set style textbox opaque noborder margins 3,2
set errorbars small
set grid xtics ytics lt 1 lc rgb c_grid lw 1
set border 11 lw 1.2
set tics out nomirror
set samples 200
