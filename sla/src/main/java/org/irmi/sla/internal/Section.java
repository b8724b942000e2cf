package org.irmi.sla.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.SlaConfigException;
import org.irmi.sla.SlaError;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * One YAML map of the SLA being bound, with its key path. Reads typed values from it, recording every
 * problem as an {@link SlaError} at the exact node instead of stopping: the binder reports all errors
 * of a file at once. A key whose value could not be read is remembered as failed, so that the config
 * constructor's range check does not report it a second time.
 *
 * <p>Not thread-safe; one binding at a time.
 */
final class Section {

  private final BindErrors errors;
  private final Node node;
  private final String path;
  private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
  private final Set<String> failed = new HashSet<>();
  /** Keys suggested for misspelt keys; a missing one of them is not reported again. */
  private final Set<String> suggested = new HashSet<>();

  private Section(BindErrors errors, Node node, String path) {
    this.errors = errors;
    this.node = node;
    this.path = path;
  }

  /**
   * Opens a map node: reports duplicate keys, non-scalar keys and keys not in {@code allowed} (with a
   * suggestion). Returns null, after reporting, if {@code node} is not a map.
   */
  static Section open(BindErrors errors, Node node, String path, List<String> allowed, String what) {
    if (!(node instanceof MappingNode map)) {
      errors.at(node, path, (path.isEmpty() ? "the file" : path) + ": expected a map of keys (" + what + "), got "
          + describe(node));
      return null;
    }
    Section s = new Section(errors, node, path);
    for (NodeTuple t : map.getValue()) {
      Node k = t.getKeyNode();
      if (!(k instanceof ScalarNode ks)) {
        errors.at(k, path, "a key" + in(path) + " must be a plain name, got " + describe(k));
        continue;
      }
      String key = ks.getValue();
      NodeTuple first = s.entries.get(key);
      if (first != null) {
        errors.at(k, s.child(key), "duplicate key '" + key + "'" + in(path) + " (first defined at line "
            + (first.getKeyNode().getStartMark().map(mk -> mk.getLine() + 1).orElse(0)) + ")");
        continue;
      }
      s.entries.put(key, t);
      if (allowed != null && !allowed.contains(key)) {
        Optional<String> suggestion = Suggest.closest(key, allowed);
        suggestion.ifPresent(s.suggested::add);
        String hint = suggestion.map(x -> " (did you mean '" + x + "'?)").orElse("");
        errors.at(k, s.child(key), "unknown key '" + key + "'" + in(path) + hint);
        s.failed.add(key);
      }
    }
    return s;
  }

  /** Re-checks the keys against a narrower allowed list (used once an action's module is known). */
  void allowOnly(List<String> allowed, String context) {
    for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
      if (!allowed.contains(e.getKey()) && !failed.contains(e.getKey())) {
        Optional<String> suggestion = Suggest.closest(e.getKey(), allowed);
        suggestion.ifPresent(suggested::add);
        String hint = suggestion.map(x -> " (did you mean '" + x + "'?)")
            .orElse(" (allowed: " + String.join(", ", allowed) + ")");
        errors.at(e.getValue().getKeyNode(), child(e.getKey()),
            "unknown key '" + e.getKey() + "'" + in(path) + context + hint);
        failed.add(e.getKey());
      }
    }
  }

  private static String in(String path) {
    return path.isEmpty() ? " at top level" : " in " + path;
  }

  static String describe(Node n) {
    if (n instanceof MappingNode) {
      return "a map";
    }
    if (n instanceof SequenceNode) {
      return "a list";
    }
    ScalarNode s = (ScalarNode) n;
    if (s.getTag().equals(Tag.NULL) && s.isPlain()) {
      return "nothing";
    }
    return "'" + s.getValue() + "'";
  }

  String path() {
    return path;
  }

  Node node() {
    return node;
  }

  BindErrors errors() {
    return errors;
  }

  String child(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  boolean has(String key) {
    return entries.containsKey(key) && !failed.contains(key);
  }

  Set<String> keys() {
    return entries.keySet();
  }

  /** The value node of {@code key}, if written (and not an unknown key). */
  Optional<Node> value(String key) {
    NodeTuple t = entries.get(key);
    return t == null || failed.contains(key) ? Optional.empty() : Optional.of(t.getValueNode());
  }

  /** The key node of {@code key}. */
  Optional<Node> keyNode(String key) {
    NodeTuple t = entries.get(key);
    return t == null ? Optional.empty() : Optional.of(t.getKeyNode());
  }

  void fail(String key, Node at, String message) {
    failed.add(key);
    errors.at(at, child(key), child(key) + ": " + message);
  }

  /** Marks {@code key} as failed (its errors were reported elsewhere, e.g. inside its sub-map). */
  void markFailed(String key) {
    failed.add(key);
  }

  /** Reports a missing required key at this map. */
  void missing(String key) {
    failed.add(key);
    if (suggested.contains(key)) {
      return; // the misspelt key was reported with this key as the suggestion
    }
    errors.at(node, child(key), "missing required key '" + key + "'" + in(path));
  }

  // ---- typed reads: null when absent or invalid (invalid is reported) ----

  /** The scalar text of {@code key}. */
  String string(String key) {
    return scalar(key, "a single value", Function.identity());
  }

  String requiredString(String key) {
    if (!entries.containsKey(key)) {
      missing(key);
      return null;
    }
    return string(key);
  }

  Duration duration(String key) {
    return scalar(key, "a duration such as 250ms, 5s or 2m", Units::parseDuration);
  }

  Long bytes(String key) {
    return scalar(key, "a size such as 512B, 64KiB or 8MiB", Units::parseBytes);
  }

  Double percent(String key) {
    return scalar(key, "a percentage such as 80%", Units::parsePercent);
  }

  Double perSecond(String key) {
    return scalar(key, "a rate such as 100/s", Units::parsePerSecond);
  }

  OperationPattern pattern(String key) {
    return scalar(key, "an operation name or glob", OperationPattern::of);
  }

  Boolean bool(String key) {
    return scalar(key, "true or false", s -> switch (s) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException("expected true or false, got '" + s + "'");
    });
  }

  Long integer(String key) {
    return scalar(key, "a whole number", s -> {
      if (!s.matches("[+-]?[0-9]+")) {
        if (s.matches("[+-]?[0-9]+(\\.[0-9]+)?[A-Za-z%/].*")) {
          throw new IllegalArgumentException("expected a plain whole number without a unit, got '" + s + "'");
        }
        throw new IllegalArgumentException("expected a whole number, got '" + s + "'");
      }
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + s + "' is too large");
      }
    });
  }

  /** A whole number that must fit an int; out-of-int values are reported as too large. */
  Integer intValue(String key, long max) {
    Long v = integer(key);
    if (v == null) {
      return null;
    }
    if (v > max || v < Integer.MIN_VALUE) {
      fail(key, value(key).orElseThrow(), "must be at most " + max + ", was " + v);
      return null;
    }
    return v.intValue();
  }

  Double number(String key) {
    return scalar(key, "a number", s -> {
      if (!s.matches("[+-]?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
        throw new IllegalArgumentException("expected a plain number such as 2 or 0.5, got '" + s + "'");
      }
      return Double.parseDouble(s);
    });
  }

  /** Parses {@code key}'s scalar with {@code parser}; reports its IllegalArgumentException message. */
  <T> T scalar(String key, String expected, Function<String, T> parser) {
    Optional<Node> v = value(key);
    if (v.isEmpty()) {
      return null;
    }
    return scalarOf(key, v.get(), expected, parser);
  }

  <T> T scalarOf(String key, Node n, String expected, Function<String, T> parser) {
    if (!(n instanceof ScalarNode s)) {
      fail(key, n, "expected " + expected + ", got " + describe(n));
      return null;
    }
    if (s.getTag().equals(Tag.NULL) && s.isPlain()) {
      fail(key, n, "has no value; expected " + expected);
      return null;
    }
    try {
      return parser.apply(s.getValue().trim());
    } catch (IllegalArgumentException e) {
      fail(key, n, e.getMessage());
      return null;
    }
  }

  /** A sub-map. */
  Section section(String key, String sectionName, String what) {
    Optional<Node> v = value(key);
    if (v.isEmpty()) {
      return null;
    }
    Section s = open(errors, v.get(), child(key), SlaKeys.keys(sectionName), what);
    if (s == null) {
      failed.add(key);
    }
    return s;
  }

  /** A list's item nodes; reports a non-list. */
  List<Node> list(String key, String what) {
    Optional<Node> v = value(key);
    if (v.isEmpty()) {
      return null;
    }
    if (!(v.get() instanceof SequenceNode seq)) {
      fail(key, v.get(), "expected a list of " + what + ", got " + describe(v.get()));
      return null;
    }
    return seq.getValue();
  }

  /** A list of scalars parsed by {@code parser}; reports each bad item at its own position. */
  <T> List<T> scalarList(String key, String what, Function<String, T> parser) {
    List<Node> items = list(key, what);
    if (items == null) {
      return null;
    }
    List<T> out = new ArrayList<>();
    boolean bad = false;
    for (int i = 0; i < items.size(); i++) {
      Node n = items.get(i);
      String itemPath = child(key) + "[" + i + "]";
      if (!(n instanceof ScalarNode s) || (s.getTag().equals(Tag.NULL) && s.isPlain())) {
        errors.at(n, itemPath, itemPath + ": expected " + what + ", got " + describe(n));
        bad = true;
        continue;
      }
      try {
        out.add(parser.apply(s.getValue().trim()));
      } catch (IllegalArgumentException e) {
        errors.at(n, itemPath, itemPath + ": " + e.getMessage());
        bad = true;
      }
    }
    if (bad) {
      failed.add(key);
      return null;
    }
    return out;
  }

  /**
   * Runs a config constructor and turns its {@link SlaConfigException} violations into positioned
   * errors; violations of keys that already failed to read are dropped (already reported). Returns
   * null if the constructor refused.
   */
  <T> T construct(Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (SlaConfigException e) {
      for (SlaConfigException.Violation v : e.violations()) {
        String first = v.key().split("[.\\[]", 2)[0];
        if (failed.contains(first)) {
          continue;
        }
        Node at = locate(v.key());
        errors.at(at, child(v.key()), child(v.key()) + ": " + v.message());
      }
      return null;
    } catch (IllegalArgumentException | NullPointerException e) {
      errors.at(node, path, (path.isEmpty() ? "the file" : path) + ": " + e.getMessage());
      return null;
    }
  }

  /** The node a relative key path ({@code a.b}, {@code list[2].c}) points at, or this map if not written. */
  Node locate(String relativeKey) {
    Node current = node;
    for (String part : relativeKey.split("\\.")) {
      String name = part;
      int index = -1;
      int bracket = part.indexOf('[');
      if (bracket >= 0) {
        name = part.substring(0, bracket);
        index = Integer.parseInt(part.substring(bracket + 1, part.indexOf(']')));
      }
      Node next = null;
      if (current instanceof MappingNode m) {
        for (NodeTuple t : m.getValue()) {
          if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(name)) {
            next = t.getValueNode();
          }
        }
      }
      if (next == null) {
        return current;
      }
      if (index >= 0) {
        if (next instanceof SequenceNode seq && index < seq.getValue().size()) {
          next = seq.getValue().get(index);
        } else {
          return next;
        }
      }
      current = next;
    }
    return current;
  }
}
