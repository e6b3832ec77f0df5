// kvtier_checksum_bench: the connector's object checksum (src/object_checksum.cpp) beside
// Mooncake's own CrcChecksum::Update, linked the connector's way (-Wl,--wrap). It checks that the
// two agree on random lengths, offsets and splits (a put may checksum an object in several
// slices), and that copy_and_checksum copies and gives Mooncake's result; then it measures both
// on a 1 MiB buffer, and a local read's copy and checksum, in one pass and in two, on objects that
// do not fit in the CPU's caches. Exit status 1 on any disagreement.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "crc_checksum.h"
#include "object_checksum.h"

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

    int copy_disagreements = 0;
    std::vector<uint8_t> copy(buffer.size() + 64);
    for (int i = 0; i < kChecks; ++i) {
        const size_t from = random() % 64, to = random() % 64, n = random() % 70000;
        std::memset(copy.data(), 0, copy.size());
        const uint64_t sum = kvt_checksum::copy_and_checksum(copy.data() + to, buffer.data() + from, n);
        copy_disagreements += sum != mooncakes(buffer.data() + from, n) ||
                              std::memcmp(copy.data() + to, buffer.data() + from, n) != 0 ||
                              (to > 0 && copy[to - 1] != 0) || copy[to + n] != 0;
    }
    std::printf("copy disagreements: %d of %d\n", copy_disagreements, kChecks);

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

    // 256 objects of 1 MiB, as the loopback bench's cell, read from a "segment" into "L1".
    constexpr size_t kObject = 1 << 20, kObjects = 256;
    std::vector<uint8_t> segment(kObject * kObjects), l1(kObject * kObjects, 1);
    for (size_t i = 0; i < segment.size(); i += 4096) segment[i] = static_cast<uint8_t>(random());
    for (int round = 0; round < 3; ++round) {
        const auto start = std::chrono::steady_clock::now();
        for (size_t k = 0; k < kObjects; ++k) std::memcpy(&l1[k * kObject], &segment[k * kObject], kObject);
        const auto copied = std::chrono::steady_clock::now();
        for (size_t k = 0; k < kObjects; ++k) {
            std::memcpy(&l1[k * kObject], &segment[k * kObject], kObject);
            mooncake::CrcChecksum checksum;
            checksum.Update(&l1[k * kObject], kObject);
            sink += checksum.Finalize();
        }
        const auto two_passes = std::chrono::steady_clock::now();
        for (size_t k = 0; k < kObjects; ++k)
            sink += kvt_checksum::copy_and_checksum(&l1[k * kObject], &segment[k * kObject], kObject);
        const auto one_pass = std::chrono::steady_clock::now();
        std::printf("256 x 1 MiB: memcpy %.2f GB/s, memcpy then checksum %.2f GB/s, copy_and_checksum %.2f GB/s\n",
                    gigabytes_per_second(kObjects * kObject, copied - start),
                    gigabytes_per_second(kObjects * kObject, two_passes - copied),
                    gigabytes_per_second(kObjects * kObject, one_pass - two_passes));
    }
    return disagreements == 0 && copy_disagreements == 0 && sink != 1 ? 0 : 1;  // sink: the loops are not optimised away
}
