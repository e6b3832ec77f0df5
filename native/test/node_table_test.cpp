// The suspect rule of node_table.h on a clock of the test's own: which running reads make their
// node suspect, whatever the speed of the machine that runs the test. Built and run with the
// connector (native/CMakeLists.txt): a failure fails the build.
#include "node_table.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr int64_t kSuspectAfter = 1000;

int failures = 0;

void expect(bool holds, const char *what) {
    if (!holds) {
        std::fprintf(stderr, "node_table_test: FAILED: %s\n", what);
        ++failures;
    }
}

// A node table whose clock and hearing the test sets.
struct Fixture {
    int64_t now = 10'000;
    std::map<int, int64_t> heard;  // node index -> when its bytes last came
    std::vector<std::string> avoided;
    NodeTable table{kSuspectAfter,
                    {[this] { return now; },
                     [this](int index) {
                         auto it = heard.find(index);
                         return it == heard.end() ? int64_t{0} : it->second;
                     },
                     [this](const std::vector<std::string> &a) { avoided.insert(avoided.end(), a.begin(), a.end()); },
                     [this](const std::vector<std::string> &a) {
                         for (const auto &address : a) std::erase(avoided, address);
                     }}};

    void hear(const std::string &node) { heard[table.index(node)] = now; }
};

void aReadNoLongerThanSuspectAfterMarksNothingEvenUnheard() {
    Fixture f;
    f.table.begin({"a"});
    f.now += kSuspectAfter;
    f.table.sweep();
    expect(!f.table.suspect("a"), "a read of exactly suspect_after, unheard, leaves its node trusted");
}

void aLongReadWhoseNodeKeepsSendingIsBusyNotSuspect() {
    Fixture f;
    f.table.begin({"a"});
    for (int step = 0; step < 29; ++step) {  // 2.9 x suspect_after, bytes every 100 ms
        f.now += 100;
        f.hear("a");
        f.table.sweep();
    }
    expect(!f.table.suspect("a"), "a node heard throughout a read below 3 x suspect_after is busy, not suspect");
}

void aLongReadWhoseNodeWentQuietMakesItSuspect() {
    Fixture f;
    f.table.begin({"a"});
    f.now += 500;
    f.hear("a");
    f.now += kSuspectAfter;  // the read has run 1.5 x suspect_after, the node unheard for suspect_after
    f.table.sweep();
    expect(!f.table.suspect("a"), "unheard for exactly suspect_after is not yet silent");
    f.now += 1;
    f.table.sweep();
    expect(f.table.suspect("a"), "a read past suspect_after whose node is unheard for longer makes it suspect");
}

void aReadPastThreeTimesSuspectAfterMakesItsNodeSuspectWhateverWasHeard() {
    Fixture f;
    f.table.begin({"a"});
    f.now += 3 * kSuspectAfter;
    f.hear("a");
    f.table.sweep();
    expect(!f.table.suspect("a"), "a heard read of exactly 3 x suspect_after leaves its node trusted");
    f.now += 1;
    f.hear("a");
    f.table.sweep();
    expect(f.table.suspect("a"), "a read past 3 x suspect_after makes its node suspect though it was heard");
}

void onlyTheStalledNodeIsMarkedAndAReadThatEndedCountsNoMore() {
    Fixture f;
    const uint64_t a = f.table.begin({"a"});
    f.table.begin({"b"});
    f.table.end(a);
    f.now += 2 * kSuspectAfter;
    f.table.sweep();
    expect(!f.table.suspect("a"), "a read that ended marks nothing");
    expect(f.table.suspect("b"), "the stalled read marks its node");
}

void aSuspectNodesAddressIsAvoidedUntilItIsCleared() {
    Fixture f;
    f.table.learn_address("a", {"198.18.0.2:15000"});
    f.table.mark("a");
    expect(f.avoided == std::vector<std::string>{"198.18.0.2:15000"}, "marking a node avoids its data address");
    expect(f.table.healthy_while_some_suspect().empty(), "no other node is known, so none to prefer");
    f.table.clear("a");
    expect(!f.table.suspect("a") && f.avoided.empty(), "clearing a node allows its data address again");
}

void anAddressLearnedWhileSuspectIsAvoidedAtOnce() {
    Fixture f;
    f.table.mark("a");
    expect(f.avoided.empty(), "no address known yet");
    f.table.learn_address("a", {"198.18.0.2:15000"});
    expect(f.avoided == std::vector<std::string>{"198.18.0.2:15000"}, "the address learned is avoided");
}

}  // namespace

int main() {
    const std::vector<void (*)()> cases = {
        aReadNoLongerThanSuspectAfterMarksNothingEvenUnheard,
        aLongReadWhoseNodeKeepsSendingIsBusyNotSuspect,
        aLongReadWhoseNodeWentQuietMakesItSuspect,
        aReadPastThreeTimesSuspectAfterMakesItsNodeSuspectWhateverWasHeard,
        onlyTheStalledNodeIsMarkedAndAReadThatEndedCountsNoMore,
        aSuspectNodesAddressIsAvoidedUntilItIsCleared,
        anAddressLearnedWhileSuspectIsAvoidedAtOnce,
    };
    for (auto run : cases) run();
    if (failures != 0) return EXIT_FAILURE;
    std::printf("node_table_test: the suspect rule holds in all %zu cases\n", cases.size());
    return EXIT_SUCCESS;
}
