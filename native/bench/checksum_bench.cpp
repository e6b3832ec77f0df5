// kvtier_checksum_bench: the connector's object checksum (src/object_checksum.cpp) beside
// Mooncake's own CrcChecksum::Update, linked the connector's way (-Wl,--wrap). It checks that the
// two agree on random lengths, offsets and splits (a put may checksum an object in several
// slices), then measures both on a 1 MiB buffer. Exit status 1 when they disagree.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "crc_checksum.h"

extern "C" void __real__ZN8mooncake11CrcChecksum6UpdateEPKvm(mooncake::CrcChecksum *self,
                                                            const void *data, size_t size);

namespace {

uint64_t mooncakes(const uint8_t *p, size_t n) {
    mooncake::CrcChecksum checksum;
    __real__ZN8mooncake11CrcChecksum6UpdateEPKvm(&checksum, p, n);
    return checksum.Finalize();
}

double gigabytes_per_second(size_t bytes, std::chrono::steady_clock::duration took) {
    return static_cast<double>(bytes) / std::chrono::duration<double>(took).count() / 1e9;
}

}  // namespace

int main() {
    std::mt19937_64 random(7);
    std::vector<uint8_t> buffer(1 << 20);
    for (auto &b : buffer) b = static_cast<uint8_t>(random());

    constexpr int kChecks = 2000;
    int disagreements = 0;
    for (int i = 0; i < kChecks; ++i) {
        const size_t offset = random() % 64, n = random() % 70000, split = random() % (n + 1);
        mooncake::CrcChecksum connectors;  // the wrapped Update: the connector's
        connectors.Update(buffer.data() + offset, split);
        connectors.Update(buffer.data() + offset + split, n - split);
        disagreements += connectors.Finalize() != mooncakes(buffer.data() + offset, n);
    }
    std::printf("disagreements: %d of %d\n", disagreements, kChecks);

    uint64_t sink = 0;
    for (int round = 0; round < 3; ++round) {
        constexpr int kFast = 2000, kSlow = 20;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < kFast; ++i) {
            mooncake::CrcChecksum checksum;
            checksum.Update(buffer.data(), buffer.size());
            sink += checksum.Finalize();
        }
        const auto middle = std::chrono::steady_clock::now();
        for (int i = 0; i < kSlow; ++i) sink += mooncakes(buffer.data(), buffer.size());
        const auto end = std::chrono::steady_clock::now();
        std::printf("1 MiB: connector's %.2f GB/s, Mooncake's %.2f GB/s\n",
                    gigabytes_per_second(kFast * buffer.size(), middle - start),
                    gigabytes_per_second(kSlow * buffer.size(), end - middle));
    }
    return disagreements == 0 && sink != 1 ? 0 : 1;  // sink: the loops are not optimised away
}
