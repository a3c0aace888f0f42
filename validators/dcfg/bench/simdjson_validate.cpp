// The practical ceiling of JSON validation: simdjson's DOM parser checks
// the whole document (structure, strings, numbers) at SIMD speed. Reads a
// file, or standard input when none is given; exit 0 when the JSON is valid.
// Compiled by validators/dcfg/bench/dcfg.sh when libsimdjson-dev is there.
//
// With --time FILE it parses the file twice and prints, on standard output,
// the kernel it chose and the seconds of each parse alone (the file already
// in memory): the first pays for the parser's fresh memory, the second
// reuses it, so it is the CPU cost of validating the text and nothing else.
#include <simdjson.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>

static double parse_seconds(simdjson::dom::parser &parser, const simdjson::padded_string &json, bool *ok)
{
	auto start = std::chrono::steady_clock::now();
	simdjson::dom::element doc;
	*ok = !parser.parse(json).get(doc);
	return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int main(int argc, char **argv)
{
	bool timed = argc > 2 && std::strcmp(argv[1], "--time") == 0;
	const char *path = timed ? argv[2] : argc > 1 ? argv[1] : nullptr;
	simdjson::padded_string json;
	if (path) {
		if (simdjson::padded_string::load(path).get(json))
			return 2;
	} else {
		std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
		json = simdjson::padded_string(in);
	}
	simdjson::dom::parser parser;
	bool ok;
	double first = parse_seconds(parser, json, &ok);
	if (timed) {
		double again = parse_seconds(parser, json, &ok);
		std::printf("%s %.6f %.6f\n", simdjson::get_active_implementation()->name().c_str(), first, again);
	}
	return ok ? 0 : 1;
}
