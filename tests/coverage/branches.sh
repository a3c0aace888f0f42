# Per-directory branch coverage of validators/ from the .gcda files of a
# --coverage build: prints "DIR BRANCHES TAKEN PERCENT" (branches taken at
# least once), one line per directory. Usage: sh branches.sh BUILD_DIR
# (not named *_test.sh: it is a tool, not a test program).
b=$1
for obj in "$b"/obj/validators/*/; do
	dir=$(basename "$obj")
	ls "$obj"*.gcda >/dev/null 2>&1 || continue
	# gcov prints, per source file, "File '...'" then "Taken at least once:P% of N".
	(cd "$obj" && gcov -b -n -o . ./*.gcda 2>/dev/null) | awk -v dir="$dir" '
		/^File / { f = $2; gsub("\047", "", f); want = (f ~ ("validators/" dir "/[^/]*\\.c$")) && !(f in seen); if (want) seen[f] = 1; next }
		want && /^Taken at least once:/ {
			split($0, a, ":"); split(a[2], p, "% of "); n += p[2]; t += p[1] * p[2] / 100; want = 0
		}
		END { if (n) printf "%s %d %d %.1f\n", dir, n, int(t + 0.5), 100 * t / n }'
done
