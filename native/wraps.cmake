# Every -Wl,--wrap of the real connector, in one place. The connector's guarantees rest on none of
# them: a batch's bounds come from its deadline, the caller's buffers from staging
# (src/staging.h), foreign bytes are caught by Mooncake's object checksum, and a request that
# failed has an unknown outcome, which a read sees as the key's own bytes or a miss
# (docs/faults.md). Without one, the connector is slower, tells a silent node later, or shows more
# misses after a partition.
#
# The build checks that the linked Mooncake still calls each wrapped symbol (check_wraps.cmake): a
# wrap that no longer engages fails the build rather than go inert. The aids built in are listed
# in connector.properties, which `kvtier adapters mooncake_store` shows.
#
# connect_guard (src/connect_guard.cpp), wraps connect:
#   corrects: Mooncake's TCP transport connects with a blocking connect() on the caller's thread,
#     bounded only by the kernel's SYN retries (about two minutes), and closes connections normally,
#     so a timed-out master RPC is still sent after a partition heals, and TIME_WAITs pile up.
#   retired by: a connect timeout in Mooncake's TCP transport, and an abortive close of the
#     connection of a master RPC that timed out.
#   without it: a batch with a replica on a silent node waits out its deadline instead of failing
#     at once; a master request that timed out during a partition may be carried out after the
#     heal, so a failed delete may remove the key stored again since (RealStaleRequestTest shows
#     that the aid prevents it); TIME_WAITs may use up the ports towards a node.
# node_hearing (src/node_hearing.cpp), wraps recv, recvmsg, close:
#   corrects: nothing tells the connector whether a running transfer still receives bytes.
#   retired by: per-transfer progress in Mooncake's public API (transferred bytes of a batch).
#   without it: a node's reads are judged by their length alone, so a busy node can be taken for
#     a silent one (suspect_after_ms must then exceed the longest healthy read).
# fast_crc (src/object_checksum.cpp), wraps CrcChecksum::Update:
#   corrects: Mooncake computes its object checksum a byte at a time (0.35 GB/s).
#   retired by: a table-driven or folded CRC in Mooncake's CrcChecksum.
#   without it: checksums cap stores and loads at about 0.35 GB/s per thread.
set(KVTIER_AIDS
  "connect_guard:connect"
  "node_hearing:recv,recvmsg,close"
  "fast_crc:_ZN8mooncake11CrcChecksum6UpdateEPKvm")

set(KVTIER_AID_NAMES)
set(KVTIER_WRAPPED_SYMBOLS)
foreach(_aid IN LISTS KVTIER_AIDS)
  string(REPLACE ":" ";" _parts "${_aid}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _symbols)
  string(REPLACE "," ";" _symbols "${_symbols}")
  list(APPEND KVTIER_AID_NAMES ${_name})
  list(APPEND KVTIER_WRAPPED_SYMBOLS ${_symbols})
endforeach()
