package org.irmi.sla.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.irmi.sla.OperationPattern;
import org.irmi.sla.WindowConfig;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Reads the shapes every part of an SLA shares, reporting errors with their positions: sub-maps and
 * lists of maps (marking the parent key failed when anything inside failed), windows, required
 * globs and enumerated values.
 */
final class SectionReader {

  private final BindErrors errors;

  SectionReader(BindErrors errors) {
    this.errors = errors;
  }

  /** The errors of the file being read. */
  BindErrors errors() {
    return errors;
  }

  /** Whether a node is a plain YAML null. */
  static boolean isNull(Node n) {
    return n instanceof ScalarNode s && s.getTag().equals(Tag.NULL) && s.isPlain();
  }

  /** Opens a sub-map, reads it, and marks the parent's key failed if anything inside failed. */
  <T> T sub(Section parent, String key, String sectionName, String what, Function<Section, T> reader) {
    int before = errors.size();
    Section s = parent.section(key, sectionName, what);
    if (s == null) {
      return null;
    }
    T value = reader.apply(s);
    if (errors.size() > before) {
      parent.markFailed(key);
      return null;
    }
    return value;
  }

  /** A list of maps; null if invalid. An absent key gives an empty list. */
  <T> List<T> itemList(Section parent, String key, String sectionName, String what, Function<Section, T> reader) {
    if (!parent.keys().contains(key)) {
      return List.of();
    }
    List<Node> items = parent.list(key, what);
    if (items == null) {
      return null; // reported by list()
    }
    int before = errors.size();
    List<T> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String path = parent.child(key) + "[" + i + "]";
      Section s = Section.open(errors, items.get(i), path, SlaKeys.keys(sectionName),
          String.join(", ", SlaKeys.keys(sectionName)));
      if (s == null) {
        continue;
      }
      T v = reader.apply(s);
      if (v != null) {
        out.add(v);
      }
    }
    if (errors.size() > before) {
      parent.markFailed(key);
      return null;
    }
    return out;
  }

  /** Maps an enumerated YAML value, suggesting the closest option. */
  static <E extends Enum<E>> E choice(String text, Class<E> type, Map<String, E> options) {
    E e = options.get(text);
    if (e != null) {
      return e;
    }
    List<String> names = new ArrayList<>(options.keySet());
    names.sort(Comparator.naturalOrder());
    String hint = Suggest.closest(text, names).map(x -> " (did you mean '" + x + "'?)").orElse("");
    throw new IllegalArgumentException("expected one of " + String.join(", ", names) + ", got '" + text + "'" + hint);
  }

  /** A window section; the default when absent, null when invalid. Missing keys take the default's. */
  WindowConfig window(Section parent, String key, WindowConfig defaults) {
    if (!parent.keys().contains(key)) {
      return defaults;
    }
    return sub(parent, key, SlaKeys.WINDOW, "length and buckets", s -> {
      Duration length = s.duration("length");
      Integer buckets = s.intValue("buckets", Integer.MAX_VALUE);
      Duration l = length == null ? defaults.length() : length;
      int n = buckets == null ? defaults.buckets() : buckets;
      return s.construct(() -> new WindowConfig(l, n));
    });
  }

  OperationPattern requiredPattern(Section s, String key) {
    if (!s.keys().contains(key)) {
      s.missing(key);
      return null;
    }
    return s.pattern(key);
  }
}
