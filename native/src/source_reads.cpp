// Mooncake's reads of a store's bytes from the caller's buffers, asked of src/store_sources.h
// first (-Wl,--wrap, on the connector only):
// - its TCP transport sends a replica's bytes with asio, one non_blocking_send1 per attempt;
// - its local memcpy (TransferSubmitter's memcpy worker) copies a replica into this process's own
//   segment.
// A refused send fails with EPIPE, as on a connection the peer reset: the transfer fails and
// Mooncake revokes the put. A refused memcpy cannot fail; it copies nothing, and the connector
// removes the object once the call returns (kvt_store).

#include <cerrno>
#include <cstddef>
#include <system_error>

#include "store_sources.h"

extern "C" void *__real_memcpy(void *to, const void *from, size_t n);

// A copy happens within its store's call (Mooncake waits for it), and a memcpy cannot fail: so
// only the buffers of calls in progress are asked about. Memory that a closed buffer had may hold
// anything by now, and a copy from it skipped would go unnoticed.
extern "C" void *__wrap_memcpy(void *to, const void *from, size_t n) {
    kvt_sources::read_in_call(from, [&] { __real_memcpy(to, from, n); });
    return to;
}

// asio::detail::socket_ops::non_blocking_send1(int, void const*, unsigned long, int,
// std::error_code&, unsigned long&): true when done (sent, or failed), false to wait for room.
extern "C" bool __real__ZN4asio6detail10socket_ops18non_blocking_send1EiPKvmiRSt10error_codeRm(
    int s, const void *data, std::size_t size, int flags, std::error_code &ec, std::size_t &sent);

extern "C" bool __wrap__ZN4asio6detail10socket_ops18non_blocking_send1EiPKvmiRSt10error_codeRm(
    int s, const void *data, std::size_t size, int flags, std::error_code &ec, std::size_t &sent) {
    bool done = true;
    const auto read = kvt_sources::read(data, [&] {
        done = __real__ZN4asio6detail10socket_ops18non_blocking_send1EiPKvmiRSt10error_codeRm(
            s, data, size, flags, ec, sent);
    });
    if (read == kvt_sources::Read::refused) {
        ec = std::error_code(EPIPE, std::system_category());
        sent = 0;
    }
    return done;
}
