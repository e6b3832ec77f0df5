// The libibverbs functions Mooncake's archives call (nm -u), forwarded to the system's
// libibverbs.so.1 (see lazy_library.h). Functions the header defines inline (ibv_post_send,
// ibv_poll_cq, ...) call through the device context's function table and need nothing here.
#include <infiniband/verbs.h>

#include "lazy_library.h"

#define IBV(ret, name, params, args, failed) KVT_FORWARD(ibverbs, ret, name, params, args, failed)

constexpr const char *kUnavailable = "(libibverbs unavailable)";  // const: internal linkage

// Without the library: no devices, as on a machine with rdma-core and no NIC.
IBV(struct ibv_device **, ibv_get_device_list, (int *n), (n),
    (n != nullptr ? void(*n = 0) : void(), nullptr))
IBV(void, ibv_free_device_list, (struct ibv_device **list), (list), )
IBV(const char *, ibv_get_device_name, (struct ibv_device *d), (d), kUnavailable)
IBV(struct ibv_context *, ibv_open_device, (struct ibv_device *d), (d), nullptr)
IBV(int, ibv_close_device, (struct ibv_context *c), (c), -1)
IBV(int, ibv_get_async_event, (struct ibv_context *c, struct ibv_async_event *e), (c, e), -1)
IBV(void, ibv_ack_async_event, (struct ibv_async_event *e), (e), )
IBV(int, ibv_query_device, (struct ibv_context *c, struct ibv_device_attr *a), (c, a), -1)
IBV(int, ibv_query_port, (struct ibv_context *c, uint8_t port, struct _compat_ibv_port_attr *a),
    (c, port, a), -1)
IBV(int, ibv_query_gid, (struct ibv_context *c, uint8_t port, int index, union ibv_gid *gid),
    (c, port, index, gid), -1)
IBV(int, _ibv_query_gid_ex,
    (struct ibv_context *c, uint32_t port, uint32_t index, struct ibv_gid_entry *e, uint32_t flags,
     size_t size),
    (c, port, index, e, flags, size), -1)
IBV(struct ibv_pd *, ibv_alloc_pd, (struct ibv_context *c), (c), nullptr)
IBV(int, ibv_dealloc_pd, (struct ibv_pd *pd), (pd), -1)
IBV(struct ibv_mr *, ibv_reg_mr, (struct ibv_pd *pd, void *addr, size_t length, int access),
    (pd, addr, length, access), nullptr)
IBV(struct ibv_mr *, ibv_reg_mr_iova2,
    (struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access),
    (pd, addr, length, iova, access), nullptr)
IBV(int, ibv_dereg_mr, (struct ibv_mr *mr), (mr), -1)
IBV(struct ibv_comp_channel *, ibv_create_comp_channel, (struct ibv_context *c), (c), nullptr)
IBV(int, ibv_destroy_comp_channel, (struct ibv_comp_channel *ch), (ch), -1)
IBV(struct ibv_cq *, ibv_create_cq,
    (struct ibv_context *c, int cqe, void *cq_context, struct ibv_comp_channel *ch, int vector),
    (c, cqe, cq_context, ch, vector), nullptr)
IBV(int, ibv_destroy_cq, (struct ibv_cq *cq), (cq), -1)
IBV(int, ibv_get_cq_event, (struct ibv_comp_channel *ch, struct ibv_cq **cq, void **cq_context),
    (ch, cq, cq_context), -1)
IBV(void, ibv_ack_cq_events, (struct ibv_cq *cq, unsigned int n), (cq, n), )
IBV(struct ibv_qp *, ibv_create_qp, (struct ibv_pd *pd, struct ibv_qp_init_attr *a), (pd, a), nullptr)
IBV(int, ibv_modify_qp, (struct ibv_qp *qp, struct ibv_qp_attr *a, int mask), (qp, a, mask), -1)
IBV(int, ibv_destroy_qp, (struct ibv_qp *qp), (qp), -1)
IBV(int, ibv_fork_init, (void), (), -1)
IBV(const char *, ibv_event_type_str, (enum ibv_event_type e), (e), kUnavailable)
IBV(const char *, ibv_wc_status_str, (enum ibv_wc_status s), (s), kUnavailable)
