package io.kvtier.host.soak;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/** Weights of the operations, e.g. {@code store=40,lookup=20,load=35,delete=5}; an operation left out weighs 0. */
final class Mix {
    private final Map<Op, Integer> weights;
    private final int total;

    private Mix(Map<Op, Integer> weights) {
        this.weights = weights;
        this.total = weights.values().stream().mapToInt(Integer::intValue).sum();
    }

    static Mix parse(String text) {
        Map<Op, Integer> weights = new EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            weights.put(op, 0);
        }
        for (String part : text.split(",")) {
            String[] pair = part.trim().split("=", 2);
            Op op = op(pair[0].trim(), text);
            if (pair.length != 2) {
                throw bad(text, "'" + part.trim() + "' has no weight");
            }
            try {
                int weight = Integer.parseInt(pair[1].trim());
                if (weight < 0) {
                    throw bad(text, "weights must not be negative");
                }
                weights.put(op, weight);
            } catch (NumberFormatException e) {
                throw bad(text, "'" + pair[1].trim() + "' is not a whole number");
            }
        }
        Mix mix = new Mix(weights);
        if (mix.total <= 0) {
            throw bad(text, "at least one weight must be positive");
        }
        return mix;
    }

    private static Op op(String name, String text) {
        for (Op op : Op.values()) {
            if (op.label().equals(name.toLowerCase(Locale.ROOT))) {
                return op;
            }
        }
        throw bad(text, "unknown operation '" + name + "' (known: store, lookup, load, delete)");
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException("--mix must be weights such as store=40,lookup=20,load=35,delete=5, got '"
                + text + "': " + why);
    }

    Op pick(SplittableRandom random) {
        int ticket = random.nextInt(total);
        for (Op op : Op.values()) {
            ticket -= weights.get(op);
            if (ticket < 0) {
                return op;
            }
        }
        throw new AssertionError("weights sum to " + total);
    }

    int weight(Op op) {
        return weights.get(op);
    }
}
