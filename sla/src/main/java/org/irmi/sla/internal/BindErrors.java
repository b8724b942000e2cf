package org.irmi.sla.internal;

import java.util.ArrayList;
import java.util.List;
import org.irmi.sla.SlaError;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * The errors of binding one SLA file, each at its line and column (1-based) with its key path. The
 * binder collects them all, instead of stopping at the first, and reports them at once.
 *
 * <p>Not thread-safe; one binding at a time.
 */
final class BindErrors {
  final String source;
  final List<SlaError> list = new ArrayList<>();

  /** @param source the file's name, as errors show it */
  BindErrors(String source) {
    this.source = source;
  }

  /** An error at {@code n}'s start. */
  void at(Node n, String keyPath, String message) {
    at(n.getStartMark().orElse(null), keyPath, message);
  }

  /** An error at {@code m}, or at 1:1 when there is no mark. */
  void at(Mark m, String keyPath, String message) {
    int line = m == null ? 1 : m.getLine() + 1;
    int col = m == null ? 1 : m.getColumn() + 1;
    at(line, col, keyPath, message);
  }

  /** An error at a 1-based line and column. */
  void at(int line, int column, String keyPath, String message) {
    list.add(new SlaError(source, line, column, keyPath, message));
  }

  /** @return how many errors so far */
  int size() {
    return list.size();
  }
}
