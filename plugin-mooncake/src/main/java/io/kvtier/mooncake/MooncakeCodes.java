package io.kvtier.mooncake;

/** Names for the Mooncake error codes this adapter interprets, for readable per-key errors. */
final class MooncakeCodes {
    static final long INTERNAL_ERROR = -1;
    static final long INVALID_PARAMS = -600;
    static final long OBJECT_NOT_FOUND = -704;
    static final long OBJECT_ALREADY_EXISTS = -705;

    private MooncakeCodes() {}

    static String describe(long code) {
        String name;
        if (code == INTERNAL_ERROR) {
            name = "INTERNAL_ERROR";
        } else if (code == INVALID_PARAMS) {
            name = "INVALID_PARAMS";
        } else if (code == OBJECT_NOT_FOUND) {
            name = "OBJECT_NOT_FOUND";
        } else if (code == OBJECT_ALREADY_EXISTS) {
            name = "OBJECT_ALREADY_EXISTS";
        } else {
            return Long.toString(code);
        }
        return name + " (" + code + ")";
    }
}
