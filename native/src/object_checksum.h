// The connector's own pass over an object with Mooncake's object checksum (object_checksum.cpp;
// the real connector only).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kvt_checksum {

// Copies n bytes from src to dst and returns Mooncake's object checksum of the bytes copied (a
// fresh CrcChecksum updated with them), reading each byte once where the CPU folds: a copy
// followed by a checksum of it reads the object twice, and costs a quarter more where memory is the
// limit.
uint64_t copy_and_checksum(void *dst, const void *src, size_t n);

}  // namespace kvt_checksum
