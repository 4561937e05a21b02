#!/usr/bin/env perl
# docs_paths.pl: the repository paths Markdown files name (docs_paths.t) and the files docs/ARCHITECTURE.md's map names (architecture_map.t).
#
#   docs_paths.pl check FILE...   one line "FILE:LINE: PATH: WHY" for each path named that is not there
#   docs_paths.pl checkmap FILE...  the same for the file names in the files' maps (README's layout)
#   docs_paths.pl map FILE        the files FILE's map names (its indented blocks), one path a line
#   docs_paths.pl table FILE      the same as check for FILE's "Where do I add X" table, and each
#                                 "`SYMBOL` in PATH" there: PATH holds SYMBOL
#
# Run from the top of the tree. What counts as a repository path: a word (backquoted or not) with
# a '/' that is not part of an absolute path, a URL or a $(VAR)/ expansion, and that
#   - starts with a top-level folder of the tree (analysis/, runner/, docs/ ...), or
#   - ends with a source's extension (.c .h .sh .py .t .gp .md): then a path whose first folder is
#     not a top-level one is looked for one level down too (io/meta.c is analysis/io/meta.c,
#     include/testcase.h runner/include/testcase.h), and ../x from the file's own folder.
# Not checked: a placeholder (tests/<name>.c, DIR/samples.csv: a folder in capitals); what a sweep
# or a build writes (results/ but results/README.md; build/, build-san/, build-generic/); the
# installed tree (scalebench/...); another project's file, written after its owner's possessive
# ("lkp's `lib/tests/pkgbuild.sh`"). A glob must match a file. A file that is planned is written
# with "(to write)" right after it, and must not exist then.
use strict;
use warnings;

my @top = grep { -d $_ && !/^build/ } map { s{^\./}{}r } glob('* .ci');
my %top = map { $_ => 1 } @top;
my $ext = qr/\.(?:c|h|sh|py|t|gp|md)$/;

# exists_path DOC PATH: the path found (for a glob, at least one match), or undef
sub exists_path {
	my ($doc, $p) = @_;
	my @try = ($p);
	if ($p =~ m{^\.\./}) {
		(my $d = $doc) =~ s{[^/]*$}{};
		@try = ("$d$p");
	} elsif ($p =~ m{^([^/]+)/} && !$top{$1} && $1 ne '.') {
		push @try, map { "$_/$p" } @top;
	}
	for my $t (@try) {
		if ($t =~ /[*?]/) { my @g = grep { -e } glob($t); return $t if @g; }
		elsif (-e $t) { return $t; }
	}
	return undef;
}

# paths LINE: the repository paths LINE names: [path, "to write" after it]
sub paths {
	my ($l) = @_;
	my @r;
	while ($l =~ m{(?<![\w/.\$)\-<>*~:])((?:\.\./|\./)?(?:[\w.\-]+/)+[\w.\-*]*[\w*])}g) {
		my ($p, $end, $start) = ($1, pos($l), $-[1]);
		my $rest = substr($l, $end);
		my $before = substr($l, 0, $start);
		next if $rest =~ /^[<{\$]/;				# tests/<name>.c, a placeholder
		next if $p =~ m{^(?:\.\.?/)?[A-Z][A-Z_]*/};		# DIR/, BUILD/: a placeholder
		next if $p =~ m{^(?:build|build-san|build-generic|scalebench)/};
		next if $p =~ m{^results/} && $p ne 'results/README.md';
		next if $before =~ m{\w(?:'s|s')\s+`?\z};		# lkp's `lib/...`: another project's
		(my $bare = $p) =~ s{^(?:\.\./|\./)+}{};
		next unless ($bare =~ m{^([^/]+)/} && $top{$1}) || $p =~ $ext;
		push @r, [$p, $rest =~ m{^`?\s*\(?to write\b} ? 1 : 0];
	}
	return @r;
}

sub check {
	my $bad = 0;
	for my $f (@_) {
		open my $fh, '<', $f or die "docs_paths.pl: $f: $!\n";
		while (my $l = <$fh>) {
			for my $x (paths($l)) {
				my ($p, $planned) = @$x;
				my $found = exists_path($f, $p);
				if ($planned && $found) { print "$f:$.: $p: it exists: drop \"(to write)\"\n"; $bad = 1; }
				elsif (!$planned && !$found) { print "$f:$.: $p: no such file (a planned one: \"(to write)\" after it)\n"; $bad = 1; }
			}
		}
		close $fh;
	}
	return $bad;
}

# map_walk FILE CODE: CODE->(LINE, NAME, PATH or undef) for each C, header or shell file FILE's
# map names. The map is FILE's indented blocks (4 spaces or more). A line's folder is the
# section's (a "## runner/" heading: runner/; any other heading: the top) or, when a line less
# indented above it starts with a folder ("    io/   ..."), that folder inside its own; a file
# named there is FOLDER/NAME, or NAME from the top (or one folder down, as check finds paths).
sub map_walk {
	my ($f, $code) = @_;
	open my $fh, '<', $f or die "docs_paths.pl: $f: $!\n";
	my ($section, @stack) = ('');	# @stack: [indent, folder] of the lines above
	while (my $l = <$fh>) {
		chomp $l;
		if ($l =~ m{^#+\s+(\S+)}) {
			my $h = $1;
			$section = $h =~ m{^([\w.\-]+/)} && -d $1 ? $1 : '';
			@stack = ();
			next;
		}
		next unless $l =~ m{^( {4,})(\S.*)$};
		my ($ind, $text) = (length $1, $2);
		pop @stack while @stack && $stack[-1][0] >= $ind;
		my $dir = @stack ? $stack[-1][1] : $section;
		my $own = $text =~ m{^([\w.\-]+/)\s} ? "$dir$1" : $dir;
		push @stack, [$ind, $own];
		my $last = '';	# the folder of the line's last file: "a/b/x.c, y.c" is a/b/y.c
		while ($text =~ m{(?<![\w/.\$)\-<>*])((?:[\w.\-]+/)*[\w.\-]+\.(?:c|h|sh|py))\b}g) {
			my $n = $1;
			my @up = ($own);
			push @up, $1 while $up[-1] =~ m{^(.*/)?[^/]+/$} && defined $1;
			my ($found) = grep { -f $_ } ((map { "$_$n" } @up, $dir, $last), $n);
			$found //= exists_path($f, $n) if $n =~ m{/};
			$last = $1 if defined $found && $found =~ m{^(.*/)};
			$code->($., $n, $found);
		}
	}
	close $fh;
}

sub map_files {
	my %seen;
	map_walk($_[0], sub { my (undef, undef, $p) = @_; print "$p\n" if defined $p && !$seen{$p}++; });
	return 0;
}

# check_map FILE...: the names in the files' maps that are nowhere
sub check_map {
	my $bad = 0;
	for my $f (@_) {
		map_walk($f, sub {
			my ($line, $n, $p) = @_;
			return if defined $p;
			print "$f:$line: $n: no such file in the map's folder\n";
			$bad = 1;
		});
	}
	return $bad;
}

# check_table FILE: the "Where do I add X" table's rows: each names a file that exists, and each
# "`SYMBOL` in PATH" names a file that holds SYMBOL (table[] and struct x are table and x)
sub check_table {
	my ($f) = @_;
	open my $fh, '<', $f or die "docs_paths.pl: $f: $!\n";
	my ($in, $rows, $bad) = (0, 0, 0);
	while (my $l = <$fh>) {
		if ($l =~ /^#+\s/) { $in = $l =~ /^#+\s+Where do I add X\s*$/; next; }
		next unless $in && $l =~ /^\|/ && $l !~ /^\|\s*(?:to add|-+)\s*\|/;
		my $n = $.;	# (reading a source below moves $.)
		$rows++;
		my @named = grep { !$_->[1] && exists_path($f, $_->[0]) } paths($l);
		unless (@named) { print "$f:$n: a row that names no file of the tree\n"; $bad = 1; }
		while ($l =~ m{`([^`]+)`\s+in\s+`?((?:[\w.\-]+/)*[\w.\-]+\.(?:c|h|sh|py)|Makefile)\b}g) {
			my ($sym, $p) = ($1, $2);
			my ($id) = $sym =~ /(\w+)(?:\[\]|\(\))?\s*$/;
			my $path = exists_path($f, $p);
			if (!defined $path || !-f $path) { print "$f:$n: $p: no such file\n"; $bad = 1; next; }
			open my $src, '<', $path or die "docs_paths.pl: $path: $!\n";
			my $has = grep { /\b\Q$id\E\b/ } <$src>;
			close $src;
			unless ($has) { print "$f:$n: $p has no $id\n"; $bad = 1; }
		}
	}
	close $fh;
	unless ($rows) { print "$f: no \"Where do I add X\" table\n"; $bad = 1; }
	return $bad;
}

my $cmd = shift @ARGV // '';
if ($cmd eq 'check') { exit check(@ARGV); }
if ($cmd eq 'checkmap') { exit check_map(@ARGV); }
if ($cmd eq 'table' && @ARGV == 1) { exit check_table($ARGV[0]); }
if ($cmd eq 'map' && @ARGV == 1) { exit map_files($ARGV[0]); }
die "usage: docs_paths.pl check FILE... | checkmap FILE... | map FILE | table FILE\n";
