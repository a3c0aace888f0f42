// The practical ceiling of JSON validation: simdjson's DOM parser checks
// the whole document (structure, strings, numbers) at SIMD speed. Reads a
// file, or standard input when none is given; exit 0 when the JSON is valid.
// Compiled by validators/dcfg/bench/dcfg.sh when libsimdjson-dev is there.
#include <simdjson.h>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char **argv)
{
	simdjson::padded_string json;
	if (argc > 1) {
		if (simdjson::padded_string::load(argv[1]).get(json))
			return 2;
	} else {
		std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
		json = simdjson::padded_string(in);
	}
	simdjson::dom::parser parser;
	simdjson::dom::element doc;
	return parser.parse(json).get(doc) ? 1 : 0;
}
