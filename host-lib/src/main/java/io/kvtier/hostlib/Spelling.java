package io.kvtier.hostlib;

import java.util.Collection;
import java.util.Optional;

/** The known word a mistyped one most likely meant, for "did you mean" hints. */
final class Spelling {
    private Spelling() {}

    /**
     * The candidate closest to {@code typed}, if it is close enough to be a typo of it: at most one
     * edit per three characters of the typed word, and at most three. Ties go to the first in
     * alphabetical order, so the hint does not depend on the order of the candidates.
     */
    static Optional<String> closest(String typed, Collection<String> candidates) {
        int allowed = Math.max(1, Math.min(3, typed.length() / 3));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = distance(typed, candidate);
            if (distance <= allowed && (distance < bestDistance
                    || distance == bestDistance && candidate.compareTo(best) < 0)) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Edits (insert, delete, substitute, or swap two neighbours) that turn {@code a} into {@code b}:
     * the optimal string alignment distance, since a swapped pair is the commonest typo.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
