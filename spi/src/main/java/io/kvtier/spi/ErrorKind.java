package io.kvtier.spi;

/** What a host may do about a key that failed (since SPI revision 3). */
public enum ErrorKind {
    /** The same call may succeed later: a node or the master did not answer in time, a replica is not ready. */
    TRANSIENT,
    /** The call will not succeed as it is: a bad key, a contract violation, an object of another size. */
    PERMANENT,
    /** The store is full: storing again only helps after something is evicted or capacity is added. */
    NO_CAPACITY,
    /** The adapter did not say: it was built for SPI revision 2, whose errors carry only a message. */
    UNCLASSIFIED
}
