package io.kvtier.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of {@link L2Adapter#listKeys} (since SPI revision 3).
 *
 * @param keys       at most the page size; fewer does not mean the listing ended
 * @param nextCursor the cursor of the next page, empty exactly when the listing is exhausted;
 *                   opaque to the caller
 */
public record KeyPage(List<ObjectKey> keys, Optional<String> nextCursor) {
    public KeyPage {
        keys = List.copyOf(keys);
        Objects.requireNonNull(nextCursor, "nextCursor");
    }
}
