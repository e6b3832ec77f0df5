// kvtier_raw_bench: the "raw baseline". It runs the workload of the Java host's `kvtier run`
// (store, lookup, load + verify, delete, recheck) straight over Mooncake's own C ABI
// (store_c.h), the way a user would without kvtier: W threads each calling the synchronous
// batch functions, so the two can be compared side by side.
//
//   kvtier_raw_bench run  --master HOST:PORT [--chunks N] [--chunk-size B] [--batch K]
//                         [--in-flight W] [--passes P] [--segment B] [--local-buffer B]
//                         [--no-register] [--json]
//   kvtier_raw_bench node --master HOST:PORT [--segment B]
//   kvtier_raw_bench soak --master HOST:PORT [--duration S] [--threads T] [--keys N] [--batch K]
//                         [--chunk-size B] [--replicas R] [--segment B] [--local-buffer B]
//   kvtier_raw_bench replay --master HOST:PORT --trace FILE [--requests N] [--block-size B]
//                         [--concurrency N] [--speed X|max] [--segment B] [--local-buffer B] [--json]
//
// Every mode takes --hostname ADDR, the address the client advertises (default 127.0.0.1).
// soak is the raw side of `kvtier soak` on a cluster: T threads, each on keys of its own, run
// batches of store, lookup, load and delete (weights 40/20/35/5, as kvtier soak's default) for S
// seconds, judge every answer against what the thread stored, and print one progress line a
// second on stderr (the format of kvtier soak's) and one JSON line at the end. It ends early
// when its stdin reaches EOF.
// replay is the raw side of `kvtier replay`: it serves a request trace in Mooncake's FAST'25
// form (one {"timestamp": ms, "hash_ids": [block ids]} a line) as an LMCache-style host does. N
// workers take the requests in arrival order, as soon as they are free (--speed max, the
// default) or at timestamp / X (--speed X); each looks up all the request's blocks, loads and
// verifies the longest run of leading ones found, then stores the blocks after the usable
// prefix, one block (default 256 KiB, as kvtier replay's) per 512-token id. Keys and contents
// are unique to the process, so runs sharing a cluster never hit each other's blocks.
//
// Exit status: 0 every pass passed (node: stdin reached EOF; soak: nothing corrupted or lost;
// replay: nothing corrupted),
// 1 runtime failure, 2 usage error.
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "store_c.h"

enum { EXIT_PASSED = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

// Where the result goes: the original stdout. Mooncake's RPC layer (yalantinglibs' easylog)
// logs its warnings and errors to std::cout, so file descriptor 1 is pointed at stderr to
// keep the one JSON line (and the node's "ready") parseable.
static FILE *out;

// The Java host's slice alignment (L1Arena.DEFAULT_ALIGNMENT): every chunk starts on a page.
#define ALIGNMENT 4096u
// LMCache's wire key: model@<kv rank %08x>@<group %x>@<chunk hash hex>.
#define KEY_PREFIX "kvtier-raw@00000000@0@"
#define KEY_SIZE (sizeof(KEY_PREFIX) - 1 + 32 + 1)
#define NODE_LOCAL_BUFFER (16u << 20)

static const char *const USAGE =
    "usage: kvtier_raw_bench run --master HOST:PORT [--chunks N] [--chunk-size BYTES] [--batch K] "
    "[--in-flight W] [--passes P] [--segment BYTES] [--local-buffer BYTES] [--no-register] [--json]"
    " | kvtier_raw_bench node --master HOST:PORT [--segment BYTES]"
    " | kvtier_raw_bench soak --master HOST:PORT [--duration SECONDS] [--threads T] [--keys N] [--batch K]"
    " [--chunk-size BYTES] [--replicas R] [--segment BYTES] [--local-buffer BYTES]"
    " | kvtier_raw_bench replay --master HOST:PORT --trace FILE [--requests N (default all)]"
    " [--block-size BYTES (default 262144)] [--concurrency N (default 4)] [--speed X|max (default max)]"
    " [--segment BYTES] [--local-buffer BYTES] [--json]"
    "; every mode: [--hostname ADDR]";

typedef enum { MODE_RUN, MODE_NODE, MODE_SOAK, MODE_REPLAY } mode_id;

typedef struct {
    mode_id mode;
    const char *master, *hostname, *trace;
    uint64_t chunks, chunk_size, batch, in_flight, passes, segment, local_buffer;
    uint64_t duration, threads, keys, replicas;
    uint64_t requests;  // replay: --requests; its block size is chunk_size, its concurrency in_flight
    double speed;       // replay: times real time, 0 for max (a closed loop)
    bool json, no_register;
} options;

typedef enum { STORE, LOOKUP, LOAD, DELETE, RECHECK, PHASES } phase_id;
static const char *const PHASE_NAMES[PHASES] = {"store", "lookup", "load", "delete", "recheck"};

// One batch's outcome. The counters mean, per phase: store ok=stored; lookup ok=hits,
// miss=misses; load ok=verified, err=not loaded; delete ok=deleted; recheck ok=survived.
typedef struct {
    int64_t start_ns, end_ns;
    uint64_t ok, miss, err, unexpected, corrupted;
    int first_error;  // first Mooncake code other than success, 0 if none
} batch_result;

typedef struct {
    uint64_t ok, miss, err, unexpected, corrupted;
    int first_error;
    int64_t nanos;
    double p50_ms, p99_ms;
} phase_stats;

typedef struct {
    phase_stats phase[PHASES];
    uint64_t errors;
    bool passed;
} pass_report;

typedef struct context context;

// Per-thread argument arrays, allocated once so no batch pays for them.
typedef struct {
    context *ctx;
    const char **keys;
    void **buffers;
    size_t *sizes;
    int *codes;
} worker;

struct context {
    const options *o;
    mooncake_store_t store;
    unsigned char *src, *dst;
    size_t stride;
    uint64_t batches;
    char *keys;  // chunks + batches keys of KEY_SIZE: the stored ones, then one never stored per batch
    int64_t *loaded;  // per chunk, what the load phase returned: bytes read, or a Mooncake code
    phase_id phase;
    atomic_uint_fast64_t next_batch;
    batch_result *results;
    pthread_barrier_t start, done;  // the workers and the main thread
};

static int64_t now_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int usage_error(const char *what, const char *arg) {
    fprintf(stderr, "kvtier_raw_bench: %s%s%s (%s)\n", what, arg ? ": " : "", arg ? arg : "", USAGE);
    return EXIT_USAGE;
}

static bool parse_u64(const char *s, uint64_t *out) {
    if (*s < '0' || *s > '9') return false;  // strtoull would accept "-1" and " 1"
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0') return false;
    *out = v;
    return true;
}

static int parse_options(int argc, char **argv, options *o) {
    *o = (options){.hostname = "127.0.0.1", .chunks = 256, .chunk_size = 1048576, .batch = 16, .in_flight = 4,
                   .passes = 1, .segment = 1073741824, .local_buffer = 268435456, .duration = 60, .threads = 4,
                   .keys = 1024, .replicas = 1, .requests = UINT64_MAX};
    if (argc < 2) return usage_error("no mode given", NULL);
    if (strcmp(argv[1], "node") == 0) {
        o->mode = MODE_NODE;
    } else if (strcmp(argv[1], "soak") == 0) {
        o->mode = MODE_SOAK;
        o->chunk_size = 262144;
        o->batch = 8;
        o->segment = 0;
        o->local_buffer = 67108864;
    } else if (strcmp(argv[1], "replay") == 0) {
        o->mode = MODE_REPLAY;
        o->chunk_size = 262144;  // kvtier replay's default --block-size
        o->local_buffer = 67108864;
    } else if (strcmp(argv[1], "run") != 0) {
        return usage_error("unknown mode", argv[1]);
    }
    static const struct option longopts[] = {
        {"master", required_argument, 0, 'm'},   {"segment", required_argument, 0, 's'},
        {"chunks", required_argument, 0, 'n'},   {"chunk-size", required_argument, 0, 'c'},
        {"batch", required_argument, 0, 'k'},    {"in-flight", required_argument, 0, 'w'},
        {"passes", required_argument, 0, 'p'},   {"local-buffer", required_argument, 0, 'l'},
        {"no-register", no_argument, 0, 'r'},    {"json", no_argument, 0, 'j'},
        {"hostname", required_argument, 0, 'h'}, {"duration", required_argument, 0, 'd'},
        {"threads", required_argument, 0, 't'},  {"keys", required_argument, 0, 'K'},
        {"replicas", required_argument, 0, 'R'}, {"trace", required_argument, 0, 'T'},
        {"requests", required_argument, 0, 'q'}, {"block-size", required_argument, 0, 'b'},
        {"concurrency", required_argument, 0, 'C'}, {"speed", required_argument, 0, 'S'},
        {0, 0, 0, 0}};
    // Which options each mode takes, by their short letters.
    static const char *const MODE_OPTIONS[] = {"msnckwplrjh", "msh", "msckldtKRh", "mslhjTqbCS"};
    opterr = 0;
    optind = 1;  // argv + 1: the mode plays argv[0]
    int opt, index;
    while ((opt = getopt_long(argc - 1, argv + 1, "", longopts, &index)) != -1) {
        if (opt == '?') return usage_error("unknown option or missing value", argv[optind]);
        if (!strchr(MODE_OPTIONS[o->mode], opt))
            return usage_error("option not valid for this mode", longopts[index].name);
        uint64_t *target = NULL;
        switch (opt) {
            case 'm': o->master = optarg; break;
            case 's': target = &o->segment; break;
            case 'n': target = &o->chunks; break;
            case 'c': target = &o->chunk_size; break;
            case 'k': target = &o->batch; break;
            case 'w': target = &o->in_flight; break;
            case 'p': target = &o->passes; break;
            case 'l': target = &o->local_buffer; break;
            case 'r': o->no_register = true; break;
            case 'j': o->json = true; break;
            case 'h': o->hostname = optarg; break;
            case 'd': target = &o->duration; break;
            case 't': target = &o->threads; break;
            case 'K': target = &o->keys; break;
            case 'R': target = &o->replicas; break;
            case 'T': o->trace = optarg; break;
            case 'q': target = &o->requests; break;
            case 'b': target = &o->chunk_size; break;
            case 'C': target = &o->in_flight; break;
            case 'S': {
                char *end;
                o->speed = strcmp(optarg, "max") == 0 ? 0 : strtod(optarg, &end);
                if (strcmp(optarg, "max") != 0 && (*end || !(o->speed > 0 && o->speed < 1e9)))
                    return usage_error("--speed must be 'max' or a positive number (times real time)", optarg);
                break;
            }
        }
        if (target && !parse_u64(optarg, target)) return usage_error("not a number", optarg);
    }
    if (optind < argc - 1) return usage_error("unexpected argument", argv[optind + 1]);
    if (!o->master || !*o->master) return usage_error("--master HOST:PORT is required", NULL);
    if (!*o->hostname) return usage_error("--hostname must not be empty", NULL);
    if (o->mode == MODE_REPLAY) {
        if (!o->trace || !*o->trace) return usage_error("--trace FILE is required", NULL);
        if (o->chunk_size == 0 || o->chunk_size > (1u << 30))
            return usage_error("--block-size must be from 1 byte to 1 GiB", NULL);
        if (o->in_flight == 0 || o->in_flight > 1024) return usage_error("--concurrency must be from 1 to 1024", NULL);
        if (o->requests == 0) return usage_error("--requests must be > 0", NULL);
        return EXIT_PASSED;
    }
    if (o->chunks == 0 || o->chunk_size == 0 || o->batch == 0 || o->in_flight == 0 || o->passes == 0)
        return usage_error("--chunks, --chunk-size, --batch, --in-flight and --passes must be > 0", NULL);
    if (o->chunks > (1u << 30) || o->chunk_size > ((uint64_t)1 << 46) / o->chunks || o->passes > 1000000)
        return usage_error("--chunks x --chunk-size or --passes is too large", NULL);
    if (o->mode == MODE_SOAK) {
        if (o->threads == 0 || o->threads > 1024 || o->replicas == 0 || o->duration == 0 || o->batch > 4096)
            return usage_error("--threads (1 to 1024), --replicas, --duration must be > 0, --batch at most 4096", NULL);
        if (o->keys < o->threads * o->batch)
            return usage_error("--keys must be at least --threads x --batch", NULL);
        if (o->chunk_size > ((uint64_t)1 << 40) / (o->threads * o->batch))
            return usage_error("--threads x --batch x --chunk-size is too large", NULL);
    }
    return EXIT_PASSED;
}

// Java's SplittableRandom(seed).nextLong()/nextInt(), written big-endian as ByteBuffer.putLong
// does, so a chunk holds the same bytes as the Java host's chunk with the same seed.
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t mix32(uint64_t z) {
    z = (z ^ (z >> 33)) * 0x62a9d9ed799705f5ULL;
    return (uint32_t)(((z ^ (z >> 28)) * 0xcb24d0a5c88c35b3ULL) >> 32);
}

static void fill(unsigned char *p, size_t n, uint64_t seed) {
    const uint64_t gamma = 0x9e3779b97f4a7c15ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = __builtin_bswap64(mix64(seed += gamma));
        memcpy(p + i, &v, 8);
    }
    for (; i < n; i++) p[i] = (unsigned char)mix32(seed += gamma);
}

static const char *key_at(const context *c, uint64_t index) { return c->keys + index * KEY_SIZE; }

static void note_error(batch_result *r, int code) {
    r->err++;
    if (r->first_error == 0) r->first_error = code;
}

static void run_batch(worker *w, uint64_t b) {
    context *c = w->ctx;
    const options *o = c->o;
    batch_result *r = &c->results[b];
    const uint64_t first = b * o->batch;
    const size_t n = (size_t)(first + o->batch <= o->chunks ? o->batch : o->chunks - first);
    unsigned char *region = c->phase == STORE ? c->src : c->dst;
    for (size_t i = 0; i < n; i++) {
        w->keys[i] = key_at(c, first + i);
        w->buffers[i] = region + (first + i) * c->stride;
        w->sizes[i] = o->chunk_size;
    }
    // No pins, one replica: what LMCache's mooncake_store adapter asks for by default.
    const mooncake_replicate_config_t one_replica = {.replica_num = 1};
    int rc = 0;

    r->start_ns = now_ns(CLOCK_MONOTONIC);
    switch (c->phase) {
        case STORE:
            rc = mooncake_store_batch_put_from(c->store, w->keys, w->buffers, w->sizes, n, &one_replica,
                                               w->codes);
            break;
        case LOOKUP:
            w->keys[n] = key_at(c, o->chunks + b);
            rc = mooncake_store_batch_is_exist(c->store, w->keys, n + 1, w->codes);
            break;
        case LOAD:
            rc = mooncake_store_batch_get_into(c->store, w->keys, w->buffers, w->sizes, n, c->loaded + first);
            break;
        case DELETE:
            // force=1: the lookup and the load have just given every key a read lease (10 s by
            // default, master's default_kv_lease_ttl), and a plain remove of a leased object
            // fails with OBJECT_HAS_LEASE (-706). An evicting cache means "drop it now".
            for (size_t i = 0; i < n; i++) w->codes[i] = mooncake_store_remove(c->store, w->keys[i], 1);
            break;
        case RECHECK:
            rc = mooncake_store_batch_is_exist(c->store, w->keys, n, w->codes);
            break;
        default:
            break;
    }
    r->end_ns = now_ns(CLOCK_MONOTONIC);

    // A failed call (rc != 0: only for bad arguments or an exception) fails every key.
    switch (c->phase) {
        case STORE:
        case DELETE:
            for (size_t i = 0; i < n; i++) {
                int code = rc != 0 ? rc : w->codes[i];
                if (code == 0) r->ok++; else note_error(r, code);
            }
            break;
        case LOOKUP:  // 1 found, 0 not found, < 0 a Mooncake error; the last key was never stored
            for (size_t i = 0; i <= n; i++) {
                int code = rc != 0 ? rc : w->codes[i];
                if (code == 1) r->ok++;
                else if (code == 0) r->miss++;
                else note_error(r, code);
                if (code != (i < n ? 1 : 0)) r->unexpected++;
            }
            break;
        case LOAD:  // verified once the phase is over (verify_loads), as the Java host does
            if (rc != 0)
                for (size_t i = 0; i < n; i++) c->loaded[first + i] = rc;
            break;
        case RECHECK:  // anything but "not found" means the delete did not take
            for (size_t i = 0; i < n; i++) {
                int code = rc != 0 ? rc : w->codes[i];
                if (code != 0) r->ok++;
                if (code < 0 && r->first_error == 0) r->first_error = code;
            }
            break;
        default:
            break;
    }
}

// One pool for the whole run, as a user would keep it (Mooncake's client may cache per-thread
// state); the barriers release it into a phase and collect it at the end.
static void *work(void *arg) {
    worker *w = arg;
    context *c = w->ctx;
    for (;;) {
        pthread_barrier_wait(&c->start);
        if (c->phase == PHASES) return NULL;
        uint64_t b;
        while ((b = atomic_fetch_add(&c->next_batch, 1)) < c->batches) run_batch(w, b);
        pthread_barrier_wait(&c->done);
    }
}

static int compare_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

// Nearest rank, as the Java host's Latencies: the ceil(p/100 * n)-th smallest; p in tenths
// with permille_ms (p99.9: 999), 0 of nothing.
static double permille_ms(const int64_t *sorted, uint64_t n, unsigned p) {
    uint64_t rank = (p * n + 999) / 1000;
    return n ? sorted[rank > 0 ? rank - 1 : 0] / 1e6 : 0;
}

static double percentile_ms(const int64_t *sorted, uint64_t n, unsigned p) { return permille_ms(sorted, n, p * 10); }

static void run_phase(context *c, phase_id phase, phase_stats *s, int64_t *scratch) {
    c->phase = phase;
    atomic_store(&c->next_batch, 0);
    memset(c->results, 0, c->batches * sizeof *c->results);
    pthread_barrier_wait(&c->start);
    pthread_barrier_wait(&c->done);

    // The phase runs from the first batch's submit to the last batch's completion.
    *s = (phase_stats){0};
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (uint64_t b = 0; b < c->batches; b++) {
        const batch_result *r = &c->results[b];
        s->ok += r->ok; s->miss += r->miss; s->err += r->err;
        s->unexpected += r->unexpected; s->corrupted += r->corrupted;
        if (s->first_error == 0) s->first_error = r->first_error;
        if (r->start_ns < first) first = r->start_ns;
        if (r->end_ns > last) last = r->end_ns;
        scratch[b] = r->end_ns - r->start_ns;
    }
    s->nanos = last - first;
    qsort(scratch, c->batches, sizeof *scratch, compare_i64);
    s->p50_ms = percentile_ms(scratch, c->batches, 50);
    s->p99_ms = percentile_ms(scratch, c->batches, 99);
}

// Outside the timed phase, so that its time is Mooncake's alone: a key verifies when all its
// bytes were read and equal the source.
static void verify_loads(const context *c, phase_stats *s) {
    const options *o = c->o;
    for (uint64_t i = 0; i < o->chunks; i++) {
        const int64_t got = c->loaded[i];
        if (got < 0) {
            s->err++;
            if (s->first_error == 0) s->first_error = (int)got;
        } else if ((uint64_t)got == o->chunk_size &&
                   memcmp(c->dst + i * c->stride, c->src + i * c->stride, o->chunk_size) == 0) {
            s->ok++;
        } else {
            s->corrupted++;
        }
    }
}

static double gb_per_s(const options *o, int64_t nanos) {
    return nanos > 0 ? (double)(o->chunks * o->chunk_size) / (double)nanos : 0;
}

// As the Java host rounds (Math.round); every value here is >= 0.
static double r3(double v) { return (double)(int64_t)(v * 1000 + 0.5) / 1000; }

static void print_json(const options *o, const pass_report *passes, uint64_t errors, bool passed) {
    fprintf(out, "{\"instances\":[{\"name\":\"raw\",\"type\":\"mooncake_c\",\"chunks\":%" PRIu64
           ",\"chunk_bytes\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"batch\":%" PRIu64 ",\"in_flight\":%" PRIu64
           ",\"passes\":[",
           o->chunks, o->chunk_size, o->chunks * o->chunk_size, o->batch, o->in_flight);
    for (uint64_t p = 0; p < o->passes; p++) {
        const pass_report *r = &passes[p];
        const phase_stats *st = &r->phase[STORE], *lu = &r->phase[LOOKUP], *ld = &r->phase[LOAD],
                          *de = &r->phase[DELETE], *rc = &r->phase[RECHECK];
        fprintf(out, "%s{\"pass\":%" PRIu64 ",\"cold\":%s", p ? "," : "", p + 1, p == 0 ? "true" : "false");
        fprintf(out, ",\"store\":{\"gb_per_s\":%.3f,\"stored\":%" PRIu64 ",\"errors\":%" PRIu64
               ",\"p50_ms\":%.3f,\"p99_ms\":%.3f}",
               r3(gb_per_s(o, st->nanos)), st->ok, st->err, r3(st->p50_ms), r3(st->p99_ms));
        fprintf(out, ",\"lookup\":{\"hits\":%" PRIu64 ",\"misses\":%" PRIu64 ",\"errors\":%" PRIu64
               ",\"unexpected\":%" PRIu64 ",\"p50_ms\":%.3f,\"p99_ms\":%.3f}",
               lu->ok, lu->miss, lu->err, lu->unexpected, r3(lu->p50_ms), r3(lu->p99_ms));
        fprintf(out, ",\"load\":{\"gb_per_s\":%.3f,\"verified\":%" PRIu64 ",\"corrupted\":%" PRIu64
               ",\"not_loaded\":%" PRIu64 ",\"p50_ms\":%.3f,\"p99_ms\":%.3f}",
               r3(gb_per_s(o, ld->nanos)), ld->ok, ld->corrupted, ld->err, r3(ld->p50_ms), r3(ld->p99_ms));
        fprintf(out, ",\"delete\":{\"deleted\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"survived\":%" PRIu64
               ",\"p50_ms\":%.3f,\"p99_ms\":%.3f}",
               de->ok, de->err, rc->ok, r3(de->p50_ms), r3(de->p99_ms));
        fprintf(out, ",\"errors\":%" PRIu64 ",\"passed\":%s}", r->errors, r->passed ? "true" : "false");
    }
    fprintf(out, "],\"errors\":%" PRIu64 ",\"passed\":%s}],\"passed\":%s}\n", errors, passed ? "true" : "false",
           passed ? "true" : "false");
}

static void print_text(const options *o, const pass_report *passes) {
    fprintf(out, "raw (mooncake_c): %" PRIu64 " chunks x %" PRIu64 " bytes = %.1f MiB, batch %" PRIu64
           ", in flight %" PRIu64 "\n",
           o->chunks, o->chunk_size, o->chunks * o->chunk_size / (1024.0 * 1024.0), o->batch, o->in_flight);
    for (uint64_t p = 0; p < o->passes; p++) {
        const pass_report *r = &passes[p];
        const phase_stats *st = &r->phase[STORE], *lu = &r->phase[LOOKUP], *ld = &r->phase[LOAD],
                          *de = &r->phase[DELETE], *rc = &r->phase[RECHECK];
        fprintf(out, "pass %" PRIu64 "%s\n", p + 1, p == 0 ? " (cold)" : "");
        fprintf(out, "  store   %7.2f GB/s  stored %" PRIu64 "  errors %" PRIu64 "  p50 %.3f ms  p99 %.3f ms\n",
               gb_per_s(o, st->nanos), st->ok, st->err, st->p50_ms, st->p99_ms);
        fprintf(out, "  lookup  hits %" PRIu64 "  misses %" PRIu64 "  errors %" PRIu64 "  unexpected %" PRIu64
               "  p50 %.3f ms  p99 %.3f ms\n",
               lu->ok, lu->miss, lu->err, lu->unexpected, lu->p50_ms, lu->p99_ms);
        fprintf(out, "  load    %7.2f GB/s  verified %" PRIu64 "  corrupted %" PRIu64 "  not loaded %" PRIu64
               "  p50 %.3f ms  p99 %.3f ms\n",
               gb_per_s(o, ld->nanos), ld->ok, ld->corrupted, ld->err, ld->p50_ms, ld->p99_ms);
        fprintf(out, "  delete  deleted %" PRIu64 "  errors %" PRIu64 "  still found after delete %" PRIu64
               "  p50 %.3f ms  p99 %.3f ms\n",
               de->ok, de->err, rc->ok, de->p50_ms, de->p99_ms);
        fprintf(out, "  %s: %" PRIu64 " errors\n", r->passed ? "PASSED" : "FAILED", r->errors);
    }
}

static mooncake_store_t connect_client(const options *o, uint64_t local_buffer) {
    mooncake_store_t store = mooncake_store_create();
    if (!store) {
        fprintf(stderr, "kvtier_raw_bench: mooncake_store_create failed\n");
        return NULL;
    }
    int rc = mooncake_store_setup(store, o->hostname, "P2PHANDSHAKE", o->segment, local_buffer, "tcp", "",
                                  o->master);
    if (rc != 0) {
        fprintf(stderr, "kvtier_raw_bench: mooncake_store_setup with master %s failed: Mooncake code %d\n",
                o->master, rc);
        mooncake_store_destroy(store);
        return NULL;
    }
    return store;
}

// The storage node of the "remote" topology: contributes its segment until stdin reaches EOF.
// SIGTERM/SIGINT/SIGHUP are not ours to handle: mooncake_store_create starts Mooncake's own
// signal thread (outside Python), which blocks them everywhere else, tears the client down
// (unmounting the segment) and re-raises, so they end the node by the signal, not with 0.
static int node(const options *o) {
    mooncake_store_t store = connect_client(o, NODE_LOCAL_BUFFER);
    if (!store) return EXIT_RUNTIME;
    fprintf(out, "ready\n");
    fflush(out);
    char buf[256];
    for (;;) {
        ssize_t got = read(STDIN_FILENO, buf, sizeof buf);
        if (got == 0 || (got < 0 && errno != EINTR)) break;
    }
    mooncake_store_destroy(store);
    return EXIT_PASSED;
}

static void *map_region(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static int run(const options *o) {
    context c = {.o = o};
    c.stride = (size_t)((o->chunk_size + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
    c.batches = (o->chunks + o->batch - 1) / o->batch;
    const size_t region = (size_t)o->chunks * c.stride;
    const uint64_t nworkers = o->in_flight < c.batches ? o->in_flight : c.batches;
    const size_t slots = (size_t)(o->batch < o->chunks ? o->batch : o->chunks) + 1;

    c.src = map_region(region);
    c.dst = map_region(region);
    c.keys = malloc((o->chunks + c.batches) * KEY_SIZE);
    c.loaded = calloc(o->chunks, sizeof *c.loaded);
    c.results = calloc(c.batches, sizeof *c.results);
    int64_t *scratch = calloc(c.batches, sizeof *scratch);
    pass_report *passes = calloc(o->passes, sizeof *passes);
    worker *workers = calloc(nworkers, sizeof *workers);
    pthread_t *threads = calloc(nworkers, sizeof *threads);
    bool ok = c.src && c.dst && c.keys && c.loaded && c.results && scratch && passes && workers && threads;
    for (uint64_t t = 0; ok && t < nworkers; t++) {
        worker *w = &workers[t];
        w->ctx = &c;
        w->keys = calloc(slots, sizeof *w->keys);
        w->buffers = calloc(slots, sizeof *w->buffers);
        w->sizes = calloc(slots, sizeof *w->sizes);
        w->codes = calloc(slots, sizeof *w->codes);
        ok = w->keys && w->buffers && w->sizes && w->codes;
    }
    int status = EXIT_RUNTIME;
    if (!ok) {
        fprintf(stderr, "kvtier_raw_bench: cannot allocate 2 x %zu bytes of chunks\n", region);
        goto out;
    }

    c.store = connect_client(o, o->local_buffer);
    if (!c.store) goto out;
    // TCP moves data from and into any address of this process (only the segment side checks
    // its own registrations), but RDMA needs registered memory, LMCache and kvtier register
    // theirs, and registering here is outside every timed phase.
    if (!o->no_register) {
        int rs = mooncake_store_register_buffer(c.store, c.src, region);
        int rd = rs != 0 ? 0 : mooncake_store_register_buffer(c.store, c.dst, region);
        if (rs != 0 || rd != 0) {
            fprintf(stderr, "kvtier_raw_bench: mooncake_store_register_buffer of %zu bytes failed: "
                            "Mooncake code %d\n", region, rs != 0 ? rs : rd);
            if (rs == 0) mooncake_store_unregister_buffer(c.store, c.src);
            goto destroy;
        }
    }

    // Started after mooncake_store_create, so they inherit the signal mask it set up for its
    // own signal thread.
    pthread_barrier_init(&c.start, NULL, (unsigned)nworkers + 1);
    pthread_barrier_init(&c.done, NULL, (unsigned)nworkers + 1);
    for (uint64_t t = 0; t < nworkers; t++) {
        if (pthread_create(&threads[t], NULL, work, &workers[t]) != 0) {
            fprintf(stderr, "kvtier_raw_bench: cannot start worker thread %" PRIu64 "\n", t + 1);
            exit(EXIT_RUNTIME);  // the started ones wait on a barrier they cannot pass
        }
    }

    uint64_t errors = 0;
    bool all_passed = true;
    int64_t last_run_id = 0;
    for (uint64_t p = 0; p < o->passes; p++) {
        // Keys unique to the pass (as the Java host's runId), so nothing an earlier pass or run
        // left in a shared store can answer; the chunk seed is runId + index, as there too.
        int64_t run_id = now_ns(CLOCK_REALTIME);
        if (run_id <= last_run_id) run_id = last_run_id + 1;
        last_run_id = run_id;
        for (uint64_t i = 0; i < o->chunks + c.batches; i++)
            snprintf(c.keys + i * KEY_SIZE, KEY_SIZE, KEY_PREFIX "%016" PRIx64 "%016" PRIx64, (uint64_t)run_id, i);
        for (uint64_t i = 0; i < o->chunks; i++)
            fill(c.src + i * c.stride, o->chunk_size, (uint64_t)run_id + i);
        memset(c.dst, 0, region);  // stale data from an earlier pass must not verify

        pass_report *r = &passes[p];
        fprintf(stderr, "kvtier_raw_bench: pass %" PRIu64 "/%" PRIu64 ":", p + 1, o->passes);
        for (int ph = 0; ph < PHASES; ph++) {
            run_phase(&c, ph, &r->phase[ph], scratch);
            if (ph == LOAD) verify_loads(&c, &r->phase[ph]);
            const phase_stats *s = &r->phase[ph];
            fprintf(stderr, " %s", PHASE_NAMES[ph]);
            if (ph == STORE || ph == LOAD) fprintf(stderr, " %.2f GB/s", gb_per_s(o, s->nanos));
            if (s->err) fprintf(stderr, " [%" PRIu64 " failed, first Mooncake code %d]", s->err, s->first_error);
            if (s->corrupted) fprintf(stderr, " [%" PRIu64 " corrupted]", s->corrupted);
            if (s->unexpected) fprintf(stderr, " [%" PRIu64 " unexpected]", s->unexpected);
            if (ph == RECHECK && s->ok) fprintf(stderr, " [%" PRIu64 " survived]", s->ok);
        }
        r->errors = r->phase[STORE].err + r->phase[LOOKUP].err + r->phase[LOAD].err +
                    r->phase[LOAD].corrupted + r->phase[DELETE].err;
        r->passed = r->phase[LOAD].ok == o->chunks && r->phase[LOOKUP].unexpected == 0 && r->errors == 0 &&
                    r->phase[RECHECK].ok == 0;
        fprintf(stderr, ": %s\n", r->passed ? "passed" : "FAILED");
        errors += r->errors;
        all_passed = all_passed && r->passed;
    }
    c.phase = PHASES;
    pthread_barrier_wait(&c.start);
    for (uint64_t t = 0; t < nworkers; t++) pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&c.start);
    pthread_barrier_destroy(&c.done);

    if (o->json) print_json(o, passes, errors, all_passed);
    else print_text(o, passes);
    fflush(out);
    status = all_passed ? EXIT_PASSED : EXIT_RUNTIME;

    if (!o->no_register) {
        mooncake_store_unregister_buffer(c.store, c.dst);
        mooncake_store_unregister_buffer(c.store, c.src);
    }
destroy:
    mooncake_store_destroy(c.store);
out:
    for (uint64_t t = 0; workers && t < nworkers; t++) {
        free(workers[t].keys); free(workers[t].buffers); free(workers[t].sizes);
        free(workers[t].codes);
    }
    free(threads); free(workers); free(passes); free(scratch); free(c.results); free(c.loaded); free(c.keys);
    if (c.dst) munmap(c.dst, region);
    if (c.src) munmap(c.src, region);
    return status;
}

// ---------------------------------------------------------------------------------------
// soak: the raw client under faults.

enum { OP_STORE, OP_LOOKUP, OP_LOAD, OP_DELETE, OPS };
static const char *const OP_NAMES[OPS] = {"store", "lookup", "load", "delete"};
static const unsigned OP_WEIGHTS[OPS] = {40, 20, 35, 5};  // kvtier soak's default --mix
// Mooncake's codes are small negative numbers (ErrorCode in types.h); anything else is "other".
#define CODE_SLOTS 1200
#define MOONCAKE_OBJECT_NOT_FOUND (-704)

typedef struct {
    atomic_uint_fast64_t batches[OPS], bytes[OPS];
    atomic_uint_fast64_t verified, corrupted, lost, phantom, errors;
    atomic_uint_fast64_t by_code[CODE_SLOTS + 1];  // index -code; the last slot: other codes
    atomic_int_fast64_t longest_ns, window_longest_ns;
    atomic_bool stop;
} soak_totals;

// A thread's own keys [first, first + n): each key's state is 0 absent, V > 0 stored with
// version V, or -V: unknown after a failed store of version V (it holds V or nothing).
typedef struct {
    const options *o;
    soak_totals *t;
    mooncake_store_t store;
    const char *key_names;
    uint64_t run_id, first, n, rng, next_version;
    int64_t *state;
    const char **keys;
    void **buffers;
    size_t *sizes;
    int *codes;
    int64_t *got;
    uint64_t *picked;
    unsigned char *region, *expect;
    atomic_int_fast64_t in_flight_since;  // 0 when no batch is in flight
} soak_thread;

static uint64_t next_random(uint64_t *s) {
    *s += 0x9e3779b97f4a7c15ULL;
    return mix64(*s);
}

static uint64_t content_seed(const soak_thread *w, uint64_t key, int64_t version) {
    return w->run_id ^ mix64(key * 0x9e3779b97f4a7c15ULL + (uint64_t)version);
}

static void count_error(soak_totals *t, int code) {
    atomic_fetch_add(&t->errors, 1);
    atomic_fetch_add(&t->by_code[code < 0 && code >= -CODE_SLOTS + 1 ? -code : CODE_SLOTS], 1);
}

static void update_max(atomic_int_fast64_t *max, int64_t v) {
    int64_t seen = atomic_load(max);
    while (v > seen && !atomic_compare_exchange_weak(max, &seen, v)) {
    }
}

static int64_t begin_batch(soak_thread *w) {
    int64_t start = now_ns(CLOCK_MONOTONIC);
    atomic_store(&w->in_flight_since, start);
    return start;
}

static void end_batch(soak_thread *w, int op, int64_t start, uint64_t ok_bytes) {
    int64_t took = now_ns(CLOCK_MONOTONIC) - start;
    atomic_store(&w->in_flight_since, 0);
    update_max(&w->t->longest_ns, took);
    update_max(&w->t->window_longest_ns, took);
    atomic_fetch_add(&w->t->batches[op], 1);
    atomic_fetch_add(&w->t->bytes[op], ok_bytes);
}

// A key believed stored was reported not found.
static void missing(soak_thread *w, uint64_t i) {
    if (w->state[i] > 0) atomic_fetch_add(&w->t->lost, 1);
    w->state[i] = 0;
}

static void soak_delete(soak_thread *w, const uint64_t *idx, size_t n) {
    int64_t start = begin_batch(w);
    for (size_t k = 0; k < n; k++) w->codes[k] = mooncake_store_remove(w->store, w->keys[k], 1);
    end_batch(w, OP_DELETE, start, 0);
    for (size_t k = 0; k < n; k++) {
        uint64_t i = idx[k];
        if (w->codes[k] == 0) {
            if (w->state[i] == 0) atomic_fetch_add(&w->t->phantom, 1);
            w->state[i] = 0;
        } else if (w->codes[k] == MOONCAKE_OBJECT_NOT_FOUND) {
            missing(w, i);
        } else {
            count_error(w->t, w->codes[k]);
            if (w->state[i] > 0) w->state[i] = -w->state[i];
        }
    }
}

static void soak_batch(soak_thread *w, int op, const uint64_t *idx, size_t n) {
    const options *o = w->o;
    soak_totals *t = w->t;
    size_t stride = (size_t)((o->chunk_size + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
    for (size_t k = 0; k < n; k++) {
        w->keys[k] = w->key_names + (w->first + idx[k]) * KEY_SIZE;
        w->buffers[k] = w->region + k * stride;
        w->sizes[k] = o->chunk_size;
    }
    if (op == OP_DELETE) {
        soak_delete(w, idx, n);
        return;
    }
    if (op == OP_STORE) {
        // A put of an existing key keeps the first value: delete what may exist first.
        size_t present = 0;
        uint64_t sel[4096];
        for (size_t k = 0; k < n; k++)
            if (w->state[idx[k]] != 0) sel[present++] = idx[k];
        if (present) {
            for (size_t k = 0; k < present; k++) w->keys[k] = w->key_names + (w->first + sel[k]) * KEY_SIZE;
            soak_delete(w, sel, present);
        }
        size_t m = 0;
        for (size_t k = 0; k < n; k++)
            if (w->state[idx[k]] == 0) sel[m++] = idx[k];
        if (!m) return;
        for (size_t k = 0; k < m; k++) {
            w->keys[k] = w->key_names + (w->first + sel[k]) * KEY_SIZE;
            fill(w->buffers[k], o->chunk_size, content_seed(w, w->first + sel[k], (int64_t)w->next_version + (int64_t)k));
        }
        const mooncake_replicate_config_t config = {.replica_num = o->replicas};
        int64_t start = begin_batch(w);
        int rc = mooncake_store_batch_put_from(w->store, w->keys, w->buffers, w->sizes, m, &config, w->codes);
        uint64_t ok_bytes = 0;
        for (size_t k = 0; k < m; k++) {
            int code = rc != 0 ? rc : w->codes[k];
            int64_t version = (int64_t)w->next_version + (int64_t)k;
            if (code == 0) {
                w->state[sel[k]] = version;
                ok_bytes += o->chunk_size;
            } else {
                w->state[sel[k]] = -version;
                count_error(t, code);
            }
        }
        end_batch(w, OP_STORE, start, ok_bytes);
        w->next_version += m;
        return;
    }
    if (op == OP_LOOKUP) {
        int64_t start = begin_batch(w);
        int rc = mooncake_store_batch_is_exist(w->store, w->keys, n, w->codes);
        end_batch(w, OP_LOOKUP, start, 0);
        for (size_t k = 0; k < n; k++) {
            int code = rc != 0 ? rc : w->codes[k];
            if (code == 1) {
                if (w->state[idx[k]] == 0) atomic_fetch_add(&t->phantom, 1);
            } else if (code == 0) {
                missing(w, idx[k]);
            } else {
                count_error(t, code);
            }
        }
        return;
    }
    for (size_t k = 0; k < n; k++) memset(w->buffers[k], 0, o->chunk_size);  // a load that writes nothing must not verify
    int64_t start = begin_batch(w);
    int rc = mooncake_store_batch_get_into(w->store, w->keys, w->buffers, w->sizes, n, w->got);
    uint64_t ok_bytes = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t got = rc != 0 ? rc : w->got[k];
        if (got >= 0) ok_bytes += (uint64_t)got;
    }
    end_batch(w, OP_LOAD, start, ok_bytes);
    for (size_t k = 0; k < n; k++) {
        uint64_t i = idx[k];
        int64_t got = rc != 0 ? rc : w->got[k];
        if (got == MOONCAKE_OBJECT_NOT_FOUND) {
            missing(w, i);
        } else if (got < 0) {
            count_error(t, (int)got);
        } else if (w->state[i] == 0) {
            atomic_fetch_add(&t->phantom, 1);
        } else {
            int64_t version = w->state[i] > 0 ? w->state[i] : -w->state[i];
            fill(w->expect, o->chunk_size, content_seed(w, w->first + i, version));
            if ((uint64_t)got == o->chunk_size && memcmp(w->buffers[k], w->expect, o->chunk_size) == 0) {
                atomic_fetch_add(&t->verified, 1);
                w->state[i] = version;
            } else {
                atomic_fetch_add(&t->corrupted, 1);
            }
        }
    }
}

static void sleep_until(int64_t monotonic_ns) {
    struct timespec ts = {.tv_sec = monotonic_ns / 1000000000, .tv_nsec = monotonic_ns % 1000000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

static void *soak_work(void *arg) {
    soak_thread *w = arg;
    const options *o = w->o;
    unsigned total = 0;
    for (int op = 0; op < OPS; op++) total += OP_WEIGHTS[op];
    while (!atomic_load(&w->t->stop)) {
        unsigned r = (unsigned)(next_random(&w->rng) % total);
        int op = 0;
        while (r >= OP_WEIGHTS[op]) r -= OP_WEIGHTS[op++];
        uint64_t from = next_random(&w->rng) % w->n;
        for (uint64_t k = 0; k < o->batch; k++) w->picked[k] = (from + k) % w->n;
        soak_batch(w, op, w->picked, (size_t)o->batch);
    }
    return NULL;
}

static void print_codes(FILE *f, soak_totals *t, bool json) {
    bool any = false;
    for (int slot = 1; slot <= CODE_SLOTS; slot++) {
        uint64_t n = atomic_load(&t->by_code[slot]);
        if (!n) continue;
        char name[16];
        if (slot == CODE_SLOTS) snprintf(name, sizeof name, "other");
        else snprintf(name, sizeof name, "%d", -slot);
        if (json) fprintf(f, "%s\"%s\":%" PRIu64, any ? "," : "", name, n);
        else fprintf(f, "%s%s=%" PRIu64, any ? ", " : "{", name, n);
        any = true;
    }
    if (!json) fprintf(f, any ? "}" : "0");
}

// A harness ends the soak early by closing its stdin.
static void *watch_stdin(void *arg) {
    soak_totals *t = arg;
    char buf[256];
    for (;;) {
        ssize_t got = read(STDIN_FILENO, buf, sizeof buf);
        if (got == 0 || (got < 0 && errno != EINTR)) break;
    }
    atomic_store(&t->stop, true);
    return NULL;
}

static int soak(const options *o) {
    soak_totals *t = calloc(1, sizeof *t);
    const uint64_t threads = o->threads, per = o->keys / threads;
    const size_t stride = (size_t)((o->chunk_size + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
    soak_thread *w = calloc(threads, sizeof *w);
    pthread_t *ids = calloc(threads, sizeof *ids);
    char *key_names = malloc(threads * per * KEY_SIZE);
    if (!t || !w || !ids || !key_names) {
        fprintf(stderr, "kvtier_raw_bench: out of memory\n");
        return EXIT_RUNTIME;
    }
    mooncake_store_t store = connect_client(o, o->local_buffer);
    if (!store) return EXIT_RUNTIME;
    uint64_t run_id = (uint64_t)now_ns(CLOCK_REALTIME);
    for (uint64_t i = 0; i < threads * per; i++)
        snprintf(key_names + i * KEY_SIZE, KEY_SIZE, KEY_PREFIX "%016" PRIx64 "%016" PRIx64, run_id, i);
    for (uint64_t i = 0; i < threads; i++) {
        soak_thread *x = &w[i];
        *x = (soak_thread){.o = o, .t = t, .store = store, .key_names = key_names, .run_id = run_id,
                           .first = i * per, .n = per, .rng = run_id + i, .next_version = 1};
        x->state = calloc(per, sizeof *x->state);
        x->keys = calloc(o->batch, sizeof *x->keys);
        x->buffers = calloc(o->batch, sizeof *x->buffers);
        x->sizes = calloc(o->batch, sizeof *x->sizes);
        x->codes = calloc(o->batch, sizeof *x->codes);
        x->got = calloc(o->batch, sizeof *x->got);
        x->picked = calloc(o->batch, sizeof *x->picked);
        x->region = map_region(o->batch * stride);
        x->expect = malloc(o->chunk_size);
        if (!x->state || !x->keys || !x->buffers || !x->sizes || !x->codes || !x->got || !x->picked || !x->region ||
            !x->expect) {
            fprintf(stderr, "kvtier_raw_bench: out of memory\n");
            return EXIT_RUNTIME;
        }
        int rc = mooncake_store_register_buffer(store, x->region, o->batch * stride);
        if (rc != 0) {
            fprintf(stderr, "kvtier_raw_bench: mooncake_store_register_buffer failed: Mooncake code %d\n", rc);
            return EXIT_RUNTIME;
        }
    }
    // Started after mooncake_store_create, so they inherit the signal mask of its signal thread.
    for (uint64_t i = 0; i < threads; i++) {
        if (pthread_create(&ids[i], NULL, soak_work, &w[i]) != 0) {
            fprintf(stderr, "kvtier_raw_bench: cannot start soak thread %" PRIu64 "\n", i + 1);
            exit(EXIT_RUNTIME);
        }
    }
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch_stdin, t) != 0 || pthread_detach(watcher) != 0) {
        fprintf(stderr, "kvtier_raw_bench: cannot start the stdin watcher\n");
        exit(EXIT_RUNTIME);
    }
    const int64_t start = now_ns(CLOCK_MONOTONIC);
    uint64_t last_batches[OPS] = {0}, last_bytes[OPS] = {0};
    int64_t last = start;
    for (uint64_t second = 1; second <= o->duration && !atomic_load(&t->stop); second++) {
        sleep_until(start + (int64_t)second * 1000000000);
        int64_t now = now_ns(CLOCK_MONOTONIC);
        double secs = (now - last) / 1e9;
        fprintf(stderr, "[raw %" PRIu64 "s] raw", second);
        for (int op = 0; op < OPS; op++) {
            uint64_t b = atomic_load(&t->batches[op]), y = atomic_load(&t->bytes[op]);
            fprintf(stderr, "  %s %.0f ops/s", OP_NAMES[op], (b - last_batches[op]) / secs);
            if (op == OP_STORE || op == OP_LOAD) fprintf(stderr, " %.1f MB/s", (y - last_bytes[op]) / secs / 1e6);
            last_batches[op] = b;
            last_bytes[op] = y;
        }
        int64_t oldest = 0;
        for (uint64_t i = 0; i < threads; i++) {
            int64_t since = atomic_load(&w[i].in_flight_since);
            if (since && now - since > oldest) oldest = now - since;
        }
        fprintf(stderr, "  errors ");
        print_codes(stderr, t, false);
        fprintf(stderr, "  wait max %" PRId64 " ms  waiting %" PRId64 " ms  corrupted %" PRIu64 "  lost %" PRIu64 "\n",
                atomic_exchange(&t->window_longest_ns, 0) / 1000000, oldest / 1000000, atomic_load(&t->corrupted),
                atomic_load(&t->lost));
        last = now;
    }
    atomic_store(&t->stop, true);
    for (uint64_t i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    double seconds = (now_ns(CLOCK_MONOTONIC) - start) / 1e9;
    bool passed = atomic_load(&t->corrupted) == 0 && atomic_load(&t->lost) == 0;
    fprintf(out, "{\"name\":\"raw\",\"seconds\":%.3f,\"replicas\":%" PRIu64 ",\"ops\":{", seconds, o->replicas);
    for (int op = 0; op < OPS; op++)
        fprintf(out, "%s\"%s\":{\"batches\":%" PRIu64 ",\"bytes\":%" PRIu64 "}", op ? "," : "", OP_NAMES[op],
                (uint64_t)atomic_load(&t->batches[op]), (uint64_t)atomic_load(&t->bytes[op]));
    fprintf(out, "},\"verified\":%" PRIu64 ",\"corrupted\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"phantom\":%" PRIu64
            ",\"errors\":%" PRIu64 ",\"errors_by_code\":{",
            (uint64_t)atomic_load(&t->verified), (uint64_t)atomic_load(&t->corrupted), (uint64_t)atomic_load(&t->lost),
            (uint64_t)atomic_load(&t->phantom), (uint64_t)atomic_load(&t->errors));
    print_codes(out, t, true);
    fprintf(out, "},\"longest_wait_ms\":%.3f,\"passed\":%s}\n", atomic_load(&t->longest_ns) / 1e6,
            passed ? "true" : "false");
    fflush(out);
    mooncake_store_destroy(store);
    return passed ? EXIT_PASSED : EXIT_RUNTIME;
}

// ---------------------------------------------------------------------------------------
// replay: a production request trace, served as an LMCache-style host serves it.

typedef struct {
    int64_t timestamp;  // ms from the trace's start
    uint64_t first;     // its block ids: trace.ids[first, first + n)
    uint32_t n;
} trace_request;

typedef struct {
    trace_request *req;
    int64_t *ids;
    uint64_t n, blocks, req_cap, ids_cap, longest;
} trace;

// What one request did; a time is -1 when its step did not run.
typedef struct {
    int64_t lookup_ns, load_ns, prefix_ns, store_ns, lag_ns;
    uint64_t hits, corrupted, found_then_missing, lookup_errors, stored, bytes_loaded;
} request_result;

typedef struct {
    const options *o;
    const trace *t;
    mooncake_store_t store;
    uint64_t run_id;
    int64_t start_ns;
    request_result *res;
    soak_totals *store_errors;  // only its errors and by_code, as count_error and print_codes use them
    atomic_uint_fast64_t next;
} replay_context;

typedef struct {
    replay_context *c;
    char *key_names;
    const char **keys;
    void **buffers;
    size_t *sizes;
    int *codes;
    int64_t *got;
    unsigned char *region, *expect;
} replay_worker;

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

// A JSON integer (no fraction, no exponent) that fits an int64_t; NULL if it is none.
static const char *parse_i64(const char *p, int64_t *v) {
    if (*p != '-' && (*p < '0' || *p > '9')) return NULL;  // strtoll would take "+1" and " 1"
    char *end;
    errno = 0;
    *v = strtoll(p, &end, 10);
    return errno != 0 || end == p || *end == '.' || *end == 'e' || *end == 'E' ? NULL : end;
}

// Room for one more element of size bytes in *array, doubling its capacity *cap when full; false when out of memory.
static bool grow(void *array, uint64_t n, uint64_t *cap, size_t size) {
    void **a = array, *bigger;
    if (n < *cap) return true;
    if (!(bigger = realloc(*a, (*cap = *cap ? 2 * *cap : 4096) * size))) return false;
    *a = bigger;
    return true;
}

// Past a string (with its escapes), returns the end of it; NULL if it does not end.
static const char *skip_string(const char *p) {
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
    return *p ? p + 1 : NULL;
}

// Past any other key's value, nested brackets and strings included; NULL if malformed.
static const char *skip_value(const char *p) {
    int depth = 0;
    do {
        p = skip_space(p);
        if (*p == '"') {
            if (!(p = skip_string(p))) return NULL;
        } else if (*p == '[' || *p == '{') {
            depth++, p++;
        } else if (*p == ']' || *p == '}' || *p == ',' || *p == ':') {
            if (depth == 0 || ((*p == ']' || *p == '}') && --depth < 0)) return NULL;
            p++;
        } else {
            const char *from = p;
            while (*p && !strchr(" \t\r\n,:[]{}\"", *p)) p++;
            if (p == from) return NULL;
        }
    } while (depth > 0);
    return p;
}

// One line, {"timestamp": T, "hash_ids": [ids], ...} in any key order, appended to t; NULL or what is wrong.
static const char *parse_request(trace *t, const char *p) {
    int64_t timestamp = -1;
    bool have_timestamp = false, have_ids = false;
    const uint64_t first = t->blocks;
    p = skip_space(p);
    if (*p++ != '{') return "not a JSON object";
    p = skip_space(p);
    for (bool more = *p != '}'; more;) {
        const char *key = p, *end = *p == '"' ? skip_string(p) : NULL;
        if (!end) return "malformed JSON: a key expected";
        p = skip_space(end);
        if (*p++ != ':') return "malformed JSON: ':' expected";
        p = skip_space(p);
        if (end - key == 11 && memcmp(key, "\"timestamp\"", 11) == 0) {
            if (!(p = parse_i64(p, &timestamp))) return "timestamp is not an integer";
            have_timestamp = true;
        } else if (end - key == 10 && memcmp(key, "\"hash_ids\"", 10) == 0) {
            if (*p++ != '[') return "hash_ids is not an array";
            t->blocks = first;  // a repeated key: the last one counts
            for (p = skip_space(p); *p != ']';) {
                if (!grow(&t->ids, t->blocks, &t->ids_cap, sizeof *t->ids)) return "out of memory";
                if (!(p = parse_i64(p, &t->ids[t->blocks++]))) return "hash_ids holds something other than integers";
                p = skip_space(p);
                if (*p == ',') p = skip_space(p + 1);
                else if (*p != ']') return "malformed JSON: ',' or ']' expected in hash_ids";
            }
            p++;
            have_ids = true;
        } else if (!(p = skip_value(p))) {
            return "malformed JSON value";
        }
        p = skip_space(p);
        more = *p == ',';
        if (more) p = skip_space(p + 1);
        else if (*p != '}') return "malformed JSON: ',' or '}' expected";
    }
    if (*skip_space(p + 1)) return "text after the object";
    if (!have_timestamp || !have_ids) return have_ids ? "no timestamp" : "no hash_ids";
    if (timestamp < 0) return "timestamp is negative";
    if (t->blocks == first) return "hash_ids is empty: a request has at least one block";
    if (!grow(&t->req, t->n, &t->req_cap, sizeof *t->req)) return "out of memory";
    t->req[t->n++] = (trace_request){.timestamp = timestamp, .first = first, .n = (uint32_t)(t->blocks - first)};
    if (t->blocks - first > t->longest) t->longest = t->blocks - first;
    return NULL;
}

static int read_trace(const options *o, trace *t) {
    char message[512];
    FILE *f = fopen(o->trace, "r");
    if (!f) {
        snprintf(message, sizeof message, "--trace %s: %s", o->trace, strerror(errno));
        return usage_error(message, NULL);
    }
    char *line = NULL;
    size_t cap = 0;
    const char *wrong = NULL;
    uint64_t number = 0;
    while (!wrong && t->n < o->requests && getline(&line, &cap, f) >= 0) {
        number++;
        wrong = parse_request(t, line);
        if (!wrong && t->n > 1 && t->req[t->n - 1].timestamp < t->req[t->n - 2].timestamp)
            wrong = "timestamp is before the previous line's: requests must be in arrival order";
    }
    if (!wrong && ferror(f)) wrong = strerror(errno);
    if (!wrong && t->n == 0) wrong = "the trace is empty";
    free(line);
    fclose(f);
    if (!wrong) return EXIT_PASSED;
    if (number) snprintf(message, sizeof message, "--trace %s:%" PRIu64 ": %s", o->trace, number, wrong);
    else snprintf(message, sizeof message, "--trace %s: %s", o->trace, wrong);
    return usage_error(message, NULL);
}

// The unbounded oracle: a request hits the longest run of its leading ids that earlier requests
// had (an open-addressing set of the ids seen).
static uint64_t max_hit_blocks(const trace *t) {
    uint64_t mask = 1, hits = 0;
    while (mask < 2 * t->blocks) mask <<= 1;
    int64_t *set = malloc(mask * sizeof *set);
    unsigned char *used = calloc(mask--, 1);
    if (!set || !used) return 0;
    for (uint64_t i = 0; i < t->n; i++) {
        const int64_t *ids = t->ids + t->req[i].first;
        bool leading = true;
        for (uint32_t k = 0; k < t->req[i].n; k++) {
            uint64_t s = mix64((uint64_t)ids[k]) & mask;
            while (used[s] && set[s] != ids[k]) s = (s + 1) & mask;
            leading = leading && used[s];
            hits += leading;
        }
        for (uint32_t k = 0; k < t->req[i].n; k++) {
            uint64_t s = mix64((uint64_t)ids[k]) & mask;
            while (used[s] && set[s] != ids[k]) s = (s + 1) & mask;
            used[s] = 1, set[s] = ids[k];
        }
    }
    free(set);
    free(used);
    return hits;
}

static uint64_t block_seed(uint64_t run_id, int64_t id) { return run_id ^ mix64((uint64_t)id * 0x9e3779b97f4a7c15ULL); }

static void serve(replay_worker *w, uint64_t index) {
    replay_context *c = w->c;
    const size_t size = (size_t)c->o->chunk_size, n = c->t->req[index].n;
    const int64_t *ids = c->t->ids + c->t->req[index].first;
    request_result *r = &c->res[index];
    for (size_t k = 0; k < n; k++)
        snprintf(w->key_names + k * KEY_SIZE, KEY_SIZE, KEY_PREFIX "%016" PRIx64 "%016" PRIx64, c->run_id,
                 (uint64_t)ids[k]);

    const int64_t started = now_ns(CLOCK_MONOTONIC);
    int rc = mooncake_store_batch_is_exist(c->store, w->keys, n, w->codes);
    const int64_t looked = now_ns(CLOCK_MONOTONIC);
    r->lookup_ns = looked - started;
    size_t prefix = 0;
    while (prefix < n && rc == 0 && w->codes[prefix] == 1) prefix++;
    for (size_t k = 0; k < n; k++) r->lookup_errors += rc != 0 || w->codes[k] < 0;

    size_t usable = 0;  // the leading blocks that loaded and verified: a model can use none after a bad one
    r->prefix_ns = r->lookup_ns;
    if (prefix > 0) {
        for (size_t k = 0; k < prefix; k++) memset(w->buffers[k], 0, size);  // a load writing nothing must not verify
        const int64_t loading = now_ns(CLOCK_MONOTONIC);
        rc = mooncake_store_batch_get_into(c->store, w->keys, w->buffers, w->sizes, prefix, w->got);
        const int64_t fetched = now_ns(CLOCK_MONOTONIC);
        r->load_ns = fetched - loading;
        r->prefix_ns += r->load_ns;
        bool broken = false;
        for (size_t k = 0; k < prefix; k++) {
            const int64_t got = rc != 0 ? rc : w->got[k];
            bool good = false;
            if (got < 0) {
                r->found_then_missing++;
            } else {
                r->bytes_loaded += (uint64_t)got;
                fill(w->expect, size, block_seed(c->run_id, ids[k]));
                good = (uint64_t)got == size && memcmp(w->buffers[k], w->expect, size) == 0;
                r->corrupted += !good;
            }
            broken = broken || !good;
            usable += !broken;
        }
    }
    r->hits = usable;

    if (usable < n) {
        for (size_t k = usable; k < n; k++) fill(w->buffers[k], size, block_seed(c->run_id, ids[k]));
        const mooncake_replicate_config_t one_replica = {.replica_num = 1};
        const int64_t storing = now_ns(CLOCK_MONOTONIC);
        rc = mooncake_store_batch_put_from(c->store, w->keys + usable, w->buffers + usable, w->sizes + usable,
                                           n - usable, &one_replica, w->codes);
        r->store_ns = now_ns(CLOCK_MONOTONIC) - storing;
        for (size_t k = 0; k < n - usable; k++) {
            const int code = rc != 0 ? rc : w->codes[k];
            if (code == 0) r->stored++;
            else count_error(c->store_errors, code);
        }
    }
}

// Takes the requests in arrival order; in an open loop, waits for each one's time first.
static void *replay_work(void *arg) {
    replay_worker *w = arg;
    replay_context *c = w->c;
    uint64_t i;
    while ((i = atomic_fetch_add(&c->next, 1)) < c->t->n) {
        if (c->o->speed > 0) {
            const int64_t due =
                c->start_ns + (int64_t)((c->t->req[i].timestamp - c->t->req[0].timestamp) * 1e6 / c->o->speed);
            sleep_until(due);
            const int64_t lag = now_ns(CLOCK_MONOTONIC) - due;
            c->res[i].lag_ns = lag > 0 ? lag : 0;
        }
        serve(w, i);
    }
    return NULL;
}

// The times of one field of every request's result that has it, sorted into scratch; how many.
static uint64_t sorted_times(const replay_context *c, size_t field, int64_t *scratch) {
    uint64_t n = 0;
    for (uint64_t i = 0; i < c->t->n; i++) {
        const int64_t v = *(const int64_t *)((const char *)&c->res[i] + field);
        if (v >= 0) scratch[n++] = v;
    }
    qsort(scratch, n, sizeof *scratch, compare_i64);
    return n;
}

// Prints the report; whether it passed (nothing corrupted).
static bool print_replay(replay_context *c, uint64_t max_hits, double seconds) {
    const options *o = c->o;
    const trace *t = c->t;
    request_result sum = {0};
    for (uint64_t i = 0; i < t->n; i++) {
        const request_result *r = &c->res[i];
        sum.hits += r->hits, sum.corrupted += r->corrupted, sum.found_then_missing += r->found_then_missing;
        sum.lookup_errors += r->lookup_errors, sum.stored += r->stored, sum.bytes_loaded += r->bytes_loaded;
    }
    int64_t *s = malloc(t->n * sizeof *s);
    if (!s) return false;
    uint64_t n = sorted_times(c, offsetof(request_result, prefix_ns), s);
    const double fetch[3] = {percentile_ms(s, n, 50), percentile_ms(s, n, 99), permille_ms(s, n, 999)};
    double ms[3][2], lag[2] = {0, 0};  // lookup, load, store: p50, p99
    const size_t fields[3] = {offsetof(request_result, lookup_ns), offsetof(request_result, load_ns),
                              offsetof(request_result, store_ns)};
    for (int f = 0; f < 3; f++) {
        n = sorted_times(c, fields[f], s);
        ms[f][0] = percentile_ms(s, n, 50), ms[f][1] = percentile_ms(s, n, 99);
    }
    if (o->speed > 0) {
        n = sorted_times(c, offsetof(request_result, lag_ns), s);
        lag[0] = percentile_ms(s, n, 99), lag[1] = percentile_ms(s, n, 100);
    }
    free(s);
    const double span_s = (t->req[t->n - 1].timestamp - t->req[0].timestamp) / 1e3 / (o->speed > 0 ? o->speed : 1);
    const double asked = o->speed > 0 && span_s > 0 ? t->n / span_s : 0, achieved = t->n / seconds;
    const uint64_t bytes_stored = sum.stored * o->chunk_size;
    const bool passed = sum.corrupted == 0;
    if (o->json) {
        fprintf(out, "{\"name\":\"raw\",\"type\":\"mooncake_c\",\"mode\":\"%s\",\"speed\":",
                o->speed > 0 ? "open" : "closed");
        if (o->speed > 0) fprintf(out, "%g", o->speed); else fprintf(out, "null");
        fprintf(out, ",\"concurrency\":%" PRIu64 ",\"requests\":%" PRIu64 ",\"blocks\":%" PRIu64
                ",\"block_bytes\":%" PRIu64 ",\"hit_blocks\":%" PRIu64 ",\"hit_rate\":%.4f,\"max_hit_blocks\":%" PRIu64
                ",\"max_hit_rate\":%.4f"
                ",\"corrupted\":%" PRIu64 ",\"found_then_missing\":%" PRIu64 ",\"lookup_errors\":%" PRIu64
                ",\"stores\":%" PRIu64 ",\"store_errors\":{",
                o->in_flight, t->n, t->blocks, o->chunk_size, sum.hits, (double)sum.hits / t->blocks, max_hits,
                (double)max_hits / t->blocks, sum.corrupted, sum.found_then_missing, sum.lookup_errors, sum.stored);
        print_codes(out, c->store_errors, true);
        fprintf(out, "},\"prefix_fetch_ms\":{\"p50\":%.3f,\"p99\":%.3f,\"p999\":%.3f}", r3(fetch[0]), r3(fetch[1]),
                r3(fetch[2]));
        const char *const names[3] = {"lookup", "load", "store"};
        for (int f = 0; f < 3; f++)
            fprintf(out, ",\"%s_ms\":{\"p50\":%.3f,\"p99\":%.3f}", names[f], r3(ms[f][0]), r3(ms[f][1]));
        fprintf(out, ",\"bytes_loaded\":%" PRIu64 ",\"bytes_stored\":%" PRIu64 ",\"seconds\":%.3f"
                ",\"requests_per_s_achieved\":%.2f", sum.bytes_loaded, bytes_stored, r3(seconds), achieved);
        if (o->speed > 0)
            fprintf(out, ",\"requests_per_s_asked\":%.2f,\"schedule_lag_ms\":{\"p99\":%.3f,\"max\":%.3f}", asked, r3(lag[0]),
                    r3(lag[1]));
        fprintf(out, ",\"passed\":%s}\n", passed ? "true" : "false");
    } else {
        fprintf(out, "raw (mooncake_c): %" PRIu64 " requests, %" PRIu64 " blocks of %" PRIu64 " bytes, ", t->n,
                t->blocks, o->chunk_size);
        if (o->speed > 0) fprintf(out, "open loop at %gx, at most %" PRIu64 " at once\n", o->speed, o->in_flight);
        else fprintf(out, "closed loop, %" PRIu64 " at once\n", o->in_flight);
        fprintf(out, "  hit rate      %.2f%%  (%" PRIu64 " blocks; unbounded: %.2f%%, %" PRIu64 " blocks)\n",
                100.0 * sum.hits / t->blocks, sum.hits, 100.0 * max_hits / t->blocks, max_hits);
        fprintf(out, "  checks        corrupted %" PRIu64 "  found then missing %" PRIu64 "  lookup errors %" PRIu64
                "\n", sum.corrupted, sum.found_then_missing, sum.lookup_errors);
        fprintf(out, "  prefix fetch  p50 %.3f ms  p99 %.3f ms  p99.9 %.3f ms  (lookup + load, per request)\n",
                fetch[0], fetch[1], fetch[2]);
        fprintf(out, "  lookup        p50 %.3f ms  p99 %.3f ms\n", ms[0][0], ms[0][1]);
        fprintf(out, "  load          p50 %.3f ms  p99 %.3f ms  %.1f MiB loaded\n", ms[1][0], ms[1][1],
                sum.bytes_loaded / 1048576.0);
        fprintf(out, "  store         p50 %.3f ms  p99 %.3f ms  %.1f MiB stored (%" PRIu64 " blocks), errors ",
                ms[2][0], ms[2][1], bytes_stored / 1048576.0, sum.stored);
        print_codes(out, c->store_errors, false);
        fprintf(out, "\n  rate          asked ");
        if (o->speed > 0) fprintf(out, "%.1f requests/s", asked); else fprintf(out, "max");
        fprintf(out, ", achieved %.1f requests/s in %.2f s", achieved, seconds);
        if (o->speed > 0) fprintf(out, "; behind schedule p99 %.1f ms, max %.1f ms", lag[0], lag[1]);
        fprintf(out, "\n  %s\n", passed ? "PASSED" : "FAILED");
    }
    fflush(out);
    return passed;
}

static int replay(const options *o) {
    trace t = {0};
    int status = read_trace(o, &t);
    if (status != EXIT_PASSED) return status;
    const uint64_t workers = o->in_flight < t.n ? o->in_flight : t.n;
    const size_t stride = (size_t)((o->chunk_size + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT), longest = t.longest;
    replay_context c = {.o = o, .t = &t, .res = calloc(t.n, sizeof *c.res),
                        .store_errors = calloc(1, sizeof(soak_totals)),
                        .run_id = mix64((uint64_t)now_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 40))};
    replay_worker *w = calloc(workers, sizeof *w);
    pthread_t *ids = calloc(workers, sizeof *ids);
    if (!c.res || !c.store_errors || !w || !ids) {
        fprintf(stderr, "kvtier_raw_bench: out of memory\n");
        return EXIT_RUNTIME;
    }
    for (uint64_t i = 0; i < t.n; i++) c.res[i] = (request_result){.load_ns = -1, .store_ns = -1, .lag_ns = -1};
    const uint64_t max_hits = max_hit_blocks(&t);
    c.store = connect_client(o, o->local_buffer);
    if (!c.store) return EXIT_RUNTIME;
    for (uint64_t i = 0; i < workers; i++) {
        replay_worker *x = &w[i];
        *x = (replay_worker){.c = &c, .key_names = malloc(longest * KEY_SIZE),
                             .keys = calloc(longest, sizeof *x->keys), .buffers = calloc(longest, sizeof *x->buffers),
                             .sizes = calloc(longest, sizeof *x->sizes), .codes = calloc(longest, sizeof *x->codes),
                             .got = calloc(longest, sizeof *x->got), .region = map_region(longest * stride),
                             .expect = malloc(o->chunk_size)};
        int rc = -1;
        if (!x->key_names || !x->keys || !x->buffers || !x->sizes || !x->codes || !x->got || !x->region || !x->expect)
            fprintf(stderr, "kvtier_raw_bench: cannot allocate %zu bytes for worker %" PRIu64 "\n", longest * stride,
                    i + 1);
        else if ((rc = mooncake_store_register_buffer(c.store, x->region, longest * stride)) != 0)
            fprintf(stderr, "kvtier_raw_bench: mooncake_store_register_buffer failed: Mooncake code %d\n", rc);
        if (rc != 0) {
            mooncake_store_destroy(c.store);
            return EXIT_RUNTIME;
        }
        for (size_t k = 0; k < longest; k++) {
            x->keys[k] = x->key_names + k * KEY_SIZE;
            x->buffers[k] = x->region + k * stride;
            x->sizes[k] = o->chunk_size;
        }
    }
    fprintf(stderr, "kvtier_raw_bench: replaying %" PRIu64 " requests (%" PRIu64 " blocks) of %s\n", t.n, t.blocks,
            o->trace);
    c.start_ns = now_ns(CLOCK_MONOTONIC);
    // Started after mooncake_store_create, so they inherit the signal mask of its signal thread.
    for (uint64_t i = 0; i < workers; i++) {
        if (pthread_create(&ids[i], NULL, replay_work, &w[i]) != 0) {
            fprintf(stderr, "kvtier_raw_bench: cannot start replay worker %" PRIu64 "\n", i + 1);
            exit(EXIT_RUNTIME);
        }
    }
    for (uint64_t i = 0; i < workers; i++) pthread_join(ids[i], NULL);
    const double seconds = (now_ns(CLOCK_MONOTONIC) - c.start_ns) / 1e9;
    const bool passed = print_replay(&c, max_hits, seconds);
    for (uint64_t i = 0; i < workers; i++) mooncake_store_unregister_buffer(c.store, w[i].region);
    mooncake_store_destroy(c.store);
    return passed ? EXIT_PASSED : EXIT_RUNTIME;
}

int main(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("%s\n", USAGE);
        return EXIT_PASSED;
    }
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_PASSED) return rc;
    int fd = dup(STDOUT_FILENO);
    out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        perror("kvtier_raw_bench: cannot set stdout aside");
        return EXIT_RUNTIME;
    }
    switch (o.mode) {
        case MODE_NODE: return node(&o);
        case MODE_SOAK: return soak(&o);
        case MODE_REPLAY: return replay(&o);
        default: return run(&o);
    }
}
