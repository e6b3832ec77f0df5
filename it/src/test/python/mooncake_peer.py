"""A host of Mooncake's own clients beside kvtier, for the interop tests (RealInteropTest).

    python3 mooncake_peer.py --client python|c --master HOST:PORT [--hostname ADDR]

--client python is MooncakeDistributedStore, Mooncake's Python client, as LMCache's mooncake_store
adapter and the vLLM and SGLang connectors use it (PYTHONPATH must hold Mooncake's python/); --client
c is Mooncake's C client (store_c.h, libmooncake_store.so under MOONCAKE_HOME/lib) through ctypes.
Each stores with an object checksum only when MOONCAKE_STORE_CHECKSUM=true, as Mooncake's clients do.
The client contributes no segment: its objects live in a storage node's.

Commands, one per line on stdin, one answer line each on stdout ("ready" first):
    put MODEL KV_RANK GROUP HASH_HEX FILE   store FILE's bytes under LMCache's wire key -> "ok KEY" | "error CODE"
    get MODEL KV_RANK GROUP HASH_HEX FILE   write the object to FILE -> "ok SIZE" | "missing"
    exists MODEL KV_RANK GROUP HASH_HEX     -> "1" | "0" | "error CODE"
"""
import argparse
import ctypes
import os
import sys


def wire_key(model, kv_rank, group, hash_hex, salt=""):
    """LMCache's multiprocess wire key, as docs/sharing.md writes it out:
    MODEL@KV_RANK as 8 hex digits@GROUP in hex@the chunk hash in hex[@CACHE_SALT]."""
    key = "%s@%08x@%x@%s" % (model, kv_rank, group, hash_hex.lower())
    return key + "@" + salt if salt else key


class PythonClient:
    def __init__(self, hostname, master):
        from mooncake.store import MooncakeDistributedStore
        self.store = MooncakeDistributedStore()
        rc = self.store.setup(hostname, "P2PHANDSHAKE", 0, 64 << 20, "tcp", "", master)
        if rc != 0:
            raise SystemExit("MooncakeDistributedStore.setup failed: %d" % rc)

    def put(self, key, data):
        return self.store.put(key, data)

    def get(self, key):
        data = self.store.get(key)
        return bytes(data) if data else None

    def exists(self, key):
        return self.store.is_exist(key)


class CClient:
    def __init__(self, hostname, master):
        lib = ctypes.CDLL(os.path.join(os.environ["MOONCAKE_HOME"], "lib", "libmooncake_store.so"))
        lib.mooncake_store_create.restype = ctypes.c_void_p
        lib.mooncake_store_setup.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint64,
                                             ctypes.c_uint64, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
        lib.mooncake_store_put.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t,
                                           ctypes.c_void_p]
        lib.mooncake_store_get_size.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.mooncake_store_get_size.restype = ctypes.c_int64
        lib.mooncake_store_get_into.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t]
        lib.mooncake_store_get_into.restype = ctypes.c_int64
        lib.mooncake_store_is_exist.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        self.lib = lib
        self.store = lib.mooncake_store_create()
        rc = lib.mooncake_store_setup(self.store, hostname.encode(), b"P2PHANDSHAKE", 0, 64 << 20, b"tcp", b"",
                                      master.encode())
        if rc != 0:
            raise SystemExit("mooncake_store_setup failed: %d" % rc)

    def put(self, key, data):
        return self.lib.mooncake_store_put(self.store, key.encode(), data, len(data), None)

    def get(self, key):
        size = self.lib.mooncake_store_get_size(self.store, key.encode())
        if size < 0:
            return None
        buf = ctypes.create_string_buffer(size)
        got = self.lib.mooncake_store_get_into(self.store, key.encode(), buf, size)
        return buf.raw[:got] if got >= 0 else None

    def exists(self, key):
        return self.lib.mooncake_store_is_exist(self.store, key.encode())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--client", choices=["python", "c"], required=True)
    parser.add_argument("--master", required=True)
    parser.add_argument("--hostname", default="127.0.0.1")
    args = parser.parse_args()
    # Mooncake's RPC layer logs to stdout; answers go to the original stdout only.
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    client = (PythonClient if args.client == "python" else CClient)(args.hostname, args.master)
    print("ready", file=answers)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        op, fields = words[0], words[1:]
        key = wire_key(fields[0], int(fields[1]), int(fields[2]), fields[3])
        if op == "put":
            with open(fields[4], "rb") as f:
                rc = client.put(key, f.read())
            print("ok " + key if rc == 0 else "error %d" % rc, file=answers)
        elif op == "get":
            data = client.get(key)
            if data is None:
                print("missing", file=answers)
            else:
                with open(fields[4], "wb") as f:
                    f.write(data)
                print("ok %d" % len(data), file=answers)
        elif op == "exists":
            rc = client.exists(key)
            print(str(rc) if rc in (0, 1) else "error %d" % rc, file=answers)
        else:
            print("error unknown command " + op, file=answers)


if __name__ == "__main__":
    main()
