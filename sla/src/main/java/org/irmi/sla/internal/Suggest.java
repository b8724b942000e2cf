package org.irmi.sla.internal;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" suggestions by edit distance. */
public final class Suggest {

  private Suggest() {}

  /**
   * The candidate closest to {@code word} if it is close enough to be a likely misspelling: an edit
   * distance (case-insensitive, adjacent transpositions count once) of at most 1 for short words,
   * 2 up to 8 characters, 3 beyond.
   */
  public static Optional<String> closest(String word, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String w = word.toLowerCase(Locale.ROOT);
    for (String c : candidates) {
      int d = distance(w, c.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        bestDistance = d;
        best = c;
      }
    }
    int allowed = word.length() <= 3 ? 1 : word.length() <= 8 ? 2 : 3;
    return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** Optimal string alignment distance. */
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
