# scripts/real/dist-sass.sh: the cases of Dart Sass (scripts/real/dist.sh
# sources it). inputs DIR writes the stylesheets; cases prints one case a
# line, NAME ARGS..., run as ./dart ./sass.snapshot ARGS in the directory
# holding the program, the snapshot and in/. Sass prints no times or
# addresses: its output compares as it is.

inputs() {
	mkdir -p "$1/in/lib"
	cat > "$1/in/basic.scss" <<'S'
$brand: #336699;
$pad: 4px;
.card {
  color: $brand;
  padding: $pad * 2 $pad;
  .title { font-weight: bold; &:hover { color: lighten($brand, 20%); } }
  > .body + .foot { margin: 0 auto; }
}
S
	cat > "$1/in/lib/_theme.scss" <<'S'
@use "sass:map";
$colors: (primary: #0a58ca, danger: #b02a37, muted: #6c757d);
@function tone($name) { @return map.get($colors, $name); }
@mixin button($name) {
  background: tone($name);
  border: 1px solid darken(tone($name), 10%);
}
S
	cat > "$1/in/modules.scss" <<'S'
@use "sass:math";
@use "sass:string";
@use "lib/theme";
@each $n in primary, danger, muted {
  .btn-#{$n} { @include theme.button($n); }
}
@for $i from 1 through 4 { .w-#{$i} { width: math.percentage(math.div($i, 4)); } }
.s { content: string.to-upper-case("quickbind"); n: math.sqrt(2); r: math.round(2.5); }
%shared { display: flex; }
.a { @extend %shared; }
.b { @extend %shared; gap: 1rem; }
S
	cat > "$1/in/error.scss" <<'S'
.x { color: $undefined-variable; }
S
	i=0
	{
		while [ $i -lt 400 ]; do
			echo ".g-$i { margin: ${i}px; &:nth-child(#{$i % 7}) { order: $i; } }"
			i=$((i + 1))
		done
	} > "$1/in/large.scss"
}

cases() {
	echo "version --version"
	echo "basic in/basic.scss"
	echo "compressed --style=compressed in/basic.scss"
	echo "modules --no-source-map in/modules.scss"
	echo "large --style=compressed in/large.scss"
	echo "stdin --stdin < in/basic.scss"
	echo "error in/error.scss"
	# several files compile concurrently: their warnings come in any order
	echo "to-files --quiet --no-source-map in/basic.scss:out/basic.css in/modules.scss:out/modules.css && cat out/basic.css out/modules.css"
}
