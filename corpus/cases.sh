# Shell functions shared by everything that runs the corpus (corpus/demo.sh,
# tests/corpus/corpus_test.sh): which files are cases, and the command line
# a case is validated with. Source it; it defines functions only.

# is_case PATH: true when PATH is a case, not a sidecar or a generator.
is_case() {
	case "$1" in
	*.expected | *.args | *.env | *.md | *.sh | *.py | *.c | */README*) return 1 ;;
	esac
	[ -e "$1" ]
}

# case_run TRACELINT PATH [OPTION…]: validates PATH as the corpus does: the
# environment of a .env sidecar (VAR=value lines), the given options, then the
# options of a .args sidecar with relative --pair= and --instr-map= paths
# resolved against the case's directory.
case_run() {
	_tl=$1 _path=$2
	shift 2
	_dir=$(dirname "$_path")
	if [ -f "$_path.args" ]; then
		while IFS= read -r _arg || [ -n "$_arg" ]; do
			case "$_arg" in
			'' | '#'*) continue ;;
			--pair=/* | --instr-map=/*) ;;
			--pair=*) _arg="--pair=$_dir/${_arg#--pair=}" ;;
			--instr-map=*) _arg="--instr-map=$_dir/${_arg#--instr-map=}" ;;
			esac
			set -- "$@" "$_arg"
		done < "$_path.args"
	fi
	if [ -f "$_path.env" ]; then
		# a .env sidecar (VAR=value lines) sets the environment, e.g. a lowered memory cap
		env $(grep -v '^#' "$_path.env") "$_tl" "$@" "$_path"
	else
		"$_tl" "$@" "$_path"
	fi
}
