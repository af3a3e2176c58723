// A start-up probe over many of abseil's libraries: flags, strings,
// formatting, time, synchronization, hashing, containers, status and cord.
#include <cstdio>
#include <string>
#include <vector>
#include "absl/container/flat_hash_map.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

ABSL_FLAG(std::string, words, "alpha,beta,gamma", "words to count");
ABSL_FLAG(int, repeat, 1, "how often");

static absl::StatusOr<int> count(const std::string &s)
{
	if (s.empty())
		return absl::InvalidArgumentError("no words");
	absl::flat_hash_map<std::string, int> m;
	for (absl::string_view w : absl::StrSplit(s, ','))
		m[std::string(w)]++;
	return static_cast<int>(m.size());
}

int main(int argc, char **argv)
{
	absl::ParseCommandLine(argc, argv);
	absl::Mutex mu;
	absl::MutexLock lock(&mu);
	absl::Cord c(absl::StrCat("words: ", absl::GetFlag(FLAGS_words)));
	absl::StatusOr<int> n = count(absl::GetFlag(FLAGS_words));
	absl::Time epoch = absl::FromUnixSeconds(0);
	std::printf("%s\n", absl::StrFormat("%s -> %d distinct, hash %s, %s", std::string(c),
		n.ok() ? *n : -1, absl::Hash<std::string>{}("x") ? "ok" : "zero",
		absl::FormatTime("%Y", epoch, absl::UTCTimeZone())).c_str());
	return 0;
}
