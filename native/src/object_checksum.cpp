// Mooncake's object checksum, as linked into the connector, computed 16 bytes at a time
// (-Wl,--wrap on CrcChecksum::Update, real connector only): a speed aid (wraps.cmake). Mooncake
// computes the CRC a byte at a time (0.34-0.39 GB/s on a core here, a tenth of one TCP stream), and
// every store and load of the connector is checksummed (docs/connector.md).
//
// The same CRC (CRC-64/ECMA-182: most significant bit first, initial value 0, no final xor),
// folded 64 bytes at a time with carry-less multiplication (PCLMULQDQ, 10-14 GB/s), or 256 where
// the CPU has VPCLMULQDQ with AVX-512 (about 50 GB/s; bench/checksum_bench.cpp). The fold keeps a
// 128-bit remainder congruent to the message modulo the polynomial; its 16 bytes and any tail go
// through Mooncake's own code, and the result enters the checksum's register through its public
// Update. Used only on CPUs with the instructions, once it gave Mooncake's result on a test pattern.
// The same fold also copies, for the connector's reads from its own segment (copy_and_checksum).

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "crc_checksum.h"
#include "object_checksum.h"

extern "C" void __real__ZN8mooncake11CrcChecksum6UpdateEPKvm(mooncake::CrcChecksum *self,
                                                            const void *data, size_t size);

namespace {

constexpr uint64_t kPolynomial = 0x42F0E1EBA9EA3693ULL;  // Mooncake's, without the x^64 term

// v * x^-64 mod P: P's constant term is 1, so v, or v + P, is divisible by x.
uint64_t divided_by_x64(uint64_t v) {
    for (int i = 0; i < 64; ++i) v = (v & 1) != 0 ? ((v ^ kPolynomial) >> 1) | (1ULL << 63) : v >> 1;
    return v;
}

// Sets the checksum's register to `target` through Mooncake's own Update: 8 bytes B move a register
// r to (r + B) * x^64 mod P.
void set_register(mooncake::CrcChecksum &checksum, uint64_t target) {
    const uint64_t b = checksum.Finalize() ^ divided_by_x64(target);
    uint8_t bytes[8];
    for (int k = 0; k < 8; ++k) bytes[k] = static_cast<uint8_t>(b >> (56 - 8 * k));
    __real__ZN8mooncake11CrcChecksum6UpdateEPKvm(&checksum, bytes, sizeof bytes);
}

// x^n mod P, for n >= 64.
constexpr uint64_t x_to_the(unsigned n) {
    uint64_t r = kPolynomial;  // x^64 mod P
    for (unsigned i = 64; i < n; ++i) r = (r << 1) ^ ((r >> 63) != 0 ? kPolynomial : 0);
    return r;
}

uint64_t mooncakes(uint64_t crc, const uint8_t *p, size_t n) {
    mooncake::CrcChecksum checksum;
    set_register(checksum, crc);
    __real__ZN8mooncake11CrcChecksum6UpdateEPKvm(&checksum, p, n);
    return checksum.Finalize();
}

// Multiplying a 128-bit remainder by x^n: its high half by x^(n+64), its low half by x^n (constants).
template <unsigned n>
__m128i by_x_to_the() {
    constexpr uint64_t high = x_to_the(n + 64), low = x_to_the(n);
    return _mm_set_epi64x(static_cast<long long>(high), static_cast<long long>(low));
}

// 16 bytes as a polynomial: the first byte's top bit is the highest coefficient.
__m128i byte_order() { return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }

#define KVT_FOLDING __attribute__((target("pclmul,ssse3")))

KVT_FOLDING __m128i big_endian(__m128i v) { return _mm_shuffle_epi8(v, byte_order()); }

// With kCopy, each load also stores the bytes it read at p + to: the copy costs no second pass.
template <bool kCopy>
KVT_FOLDING __m128i load(const uint8_t *p, ptrdiff_t to) {
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    if constexpr (kCopy) _mm_storeu_si128(reinterpret_cast<__m128i *>(const_cast<uint8_t *>(p) + to), raw);
    return big_endian(raw);
}

KVT_FOLDING __m128i times(__m128i a, __m128i by) {
    return _mm_xor_si128(_mm_clmulepi64_si128(a, by, 0x11), _mm_clmulepi64_si128(a, by, 0x00));
}

// Four remainders, of every fourth 16 bytes, as one.
KVT_FOLDING __m128i joined(__m128i a0, __m128i a1, __m128i a2, __m128i a3) {
    return _mm_xor_si128(_mm_xor_si128(times(a0, by_x_to_the<384>()), times(a1, by_x_to_the<256>())),
                         _mm_xor_si128(times(a2, by_x_to_the<128>()), a3));
}

#define KVT_WIDE_FOLDING __attribute__((target("pclmul,ssse3,avx512f,avx512bw,vpclmulqdq")))

// The same on 64 bytes at a time: four 128-bit remainders in each 512-bit register.
KVT_WIDE_FOLDING __m512i wide(__m128i by) { return _mm512_maskz_broadcast_i32x4(0xFFFF, by); }

template <bool kCopy>
KVT_WIDE_FOLDING __m512i load_wide(const uint8_t *p, ptrdiff_t to) {
    const __m512i raw = _mm512_loadu_si512(p);
    if constexpr (kCopy) _mm512_storeu_si512(const_cast<uint8_t *>(p) + to, raw);
    return _mm512_shuffle_epi8(raw, wide(byte_order()));
}

KVT_WIDE_FOLDING __m512i times_wide(__m512i a, __m512i by) {
    return _mm512_xor_si512(_mm512_clmulepi64_epi128(a, by, 0x11), _mm512_clmulepi64_epi128(a, by, 0x00));
}

// n >= 256: folds 256 bytes at a time into four registers, sixteen remainders in all, then those
// into one, which it returns; p and n move past the bytes folded.
template <bool kCopy>
KVT_WIDE_FOLDING __m128i folded_wide(__m128i start, const uint8_t *&p, size_t &n, ptrdiff_t to) {
    const __m512i by2048 = wide(by_x_to_the<2048>());
    __m512i a0 = _mm512_xor_si512(load_wide<kCopy>(p, to), _mm512_zextsi128_si512(start));
    __m512i a1 = load_wide<kCopy>(p + 64, to), a2 = load_wide<kCopy>(p + 128, to), a3 = load_wide<kCopy>(p + 192, to);
    for (p += 256, n -= 256; n >= 256; p += 256, n -= 256) {
        a0 = _mm512_xor_si512(times_wide(a0, by2048), load_wide<kCopy>(p, to));
        a1 = _mm512_xor_si512(times_wide(a1, by2048), load_wide<kCopy>(p + 64, to));
        a2 = _mm512_xor_si512(times_wide(a2, by2048), load_wide<kCopy>(p + 128, to));
        a3 = _mm512_xor_si512(times_wide(a3, by2048), load_wide<kCopy>(p + 192, to));
    }
    const __m512i a = _mm512_xor_si512(
        _mm512_xor_si512(times_wide(a0, wide(by_x_to_the<1536>())), times_wide(a1, wide(by_x_to_the<1024>()))),
        _mm512_xor_si512(times_wide(a2, wide(by_x_to_the<512>())), a3));
    return joined(_mm512_maskz_extracti32x4_epi32(0xF, a, 0), _mm512_maskz_extracti32x4_epi32(0xF, a, 1),
                  _mm512_maskz_extracti32x4_epi32(0xF, a, 2), _mm512_maskz_extracti32x4_epi32(0xF, a, 3));
}

// n >= 16. Four remainders, of every fourth block, keep the multiplier busy; sixteen when the CPU
// has 512-bit carry-less multiplication. With kCopy, the n bytes at p are also copied to p + to.
template <bool kCopy>
KVT_FOLDING uint64_t folded(uint64_t crc, const uint8_t *p, size_t n, bool wide, ptrdiff_t to = 0) {
    const __m128i by512 = by_x_to_the<512>(), by128 = by_x_to_the<128>();
    const __m128i start = _mm_set_epi64x(static_cast<long long>(crc), 0);  // enters as the first 8 bytes
    __m128i a;
    if (wide && n >= 256) {
        a = folded_wide<kCopy>(start, p, n, to);
    } else if (n >= 64) {
        __m128i a0 = _mm_xor_si128(load<kCopy>(p, to), start), a1 = load<kCopy>(p + 16, to),
                a2 = load<kCopy>(p + 32, to), a3 = load<kCopy>(p + 48, to);
        for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {
            a0 = _mm_xor_si128(times(a0, by512), load<kCopy>(p, to));
            a1 = _mm_xor_si128(times(a1, by512), load<kCopy>(p + 16, to));
            a2 = _mm_xor_si128(times(a2, by512), load<kCopy>(p + 32, to));
            a3 = _mm_xor_si128(times(a3, by512), load<kCopy>(p + 48, to));
        }
        a = joined(a0, a1, a2, a3);
    } else {
        a = _mm_xor_si128(load<kCopy>(p, to), start);
        p += 16;
        n -= 16;
    }
    for (; n >= 16; p += 16, n -= 16) a = _mm_xor_si128(times(a, by128), load<kCopy>(p, to));
    if constexpr (kCopy) std::memcpy(const_cast<uint8_t *>(p) + to, p, n);
    alignas(16) uint8_t remainder[16];
    _mm_store_si128(reinterpret_cast<__m128i *>(remainder), big_endian(a));
    return mooncakes(mooncakes(0, remainder, 16), p, n);
}

// Whether the register can be set through Update, as set_register assumes, and the fold gives
// Mooncake's result at lengths around each path's edges, after a register carried in from earlier bytes.
bool folding_gives_mooncakes_result(bool wide) {
    for (uint64_t target : {0ULL, 1ULL, 0x8000000000000000ULL, 0x9E3779B97F4A7C15ULL}) {
        mooncake::CrcChecksum checksum;
        __real__ZN8mooncake11CrcChecksum6UpdateEPKvm(&checksum, "kvtier", 6);
        set_register(checksum, target);
        if (checksum.Finalize() != target) return false;
    }
    uint8_t pattern[2053];
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (auto &b : pattern) b = static_cast<uint8_t>((seed = seed * 6364136223846793005ULL + 1) >> 56);
    const uint64_t carried = mooncakes(0, pattern, 5);
    uint8_t copy[sizeof pattern];
    for (size_t n : {16, 17, 63, 64, 65, 127, 128, 200, 255, 256, 257, 511, 512, 527, 1026, 2048}) {
        if (folded<false>(carried, pattern + 5, n, wide) != mooncakes(carried, pattern + 5, n)) return false;
        std::memset(copy, 0, sizeof copy);
        if (folded<true>(carried, pattern + 5, n, wide, copy + 3 - (pattern + 5)) != mooncakes(carried, pattern + 5, n) ||
            std::memcmp(copy + 3, pattern + 5, n) != 0 || copy[2] != 0 || copy[3 + n] != 0)
            return false;
    }
    return true;
}

struct Folding {
    bool fold, wide;
};

// Whether this CPU folds, and 256 bytes at a time, checked once against Mooncake's own code.
const Folding &folding() {
    static const Folding it = [] {
        const bool fold = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3") &&
                          folding_gives_mooncakes_result(false);
        const bool wide = fold && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("vpclmulqdq") && folding_gives_mooncakes_result(true);
        return Folding{fold, wide};
    }();
    return it;
}

}  // namespace

extern "C" void __wrap__ZN8mooncake11CrcChecksum6UpdateEPKvm(mooncake::CrcChecksum *self,
                                                            const void *data, size_t size) {
    if (!folding().fold || size < 16) {
        __real__ZN8mooncake11CrcChecksum6UpdateEPKvm(self, data, size);
        return;
    }
    set_register(*self, folded<false>(self->Finalize(), static_cast<const uint8_t *>(data), size, folding().wide));
}

uint64_t kvt_checksum::copy_and_checksum(void *dst, const void *src, size_t n) {
    mooncake::CrcChecksum checksum;
    if (!folding().fold || n < 16) {
        std::memcpy(dst, src, n);
        checksum.Update(dst, n);  // the bytes that landed
        return checksum.Finalize();
    }
    // The register is the checksum (no final xor): the fold's result is the answer.
    const auto *from = static_cast<const uint8_t *>(src);
    return folded<true>(checksum.Finalize(), from, n, folding().wide, static_cast<uint8_t *>(dst) - from);
}
