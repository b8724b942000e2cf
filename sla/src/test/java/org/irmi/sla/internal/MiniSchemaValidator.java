package org.irmi.sla.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A small JSON Schema validator for the keywords {@code docs/sla.schema.json} uses ($ref into $defs,
 * type, properties, additionalProperties, required, enum, const, pattern, minLength, maxLength,
 * minimum, maximum, exclusiveMinimum, items, minItems, uniqueItems, oneOf, anyOf), so tests can show
 * that the schema editors use accepts the valid examples and refuses typical mistakes. Test code only.
 */
final class MiniSchemaValidator {

  private final Map<String, Object> root;

  MiniSchemaValidator(Map<String, Object> root) {
    this.root = root;
  }

  /** The problems of {@code value} against the root schema; empty when valid. */
  List<String> validate(Object value) {
    List<String> out = new ArrayList<>();
    check(root, value, "$", out);
    return out;
  }

  @SuppressWarnings("unchecked")
  private void check(Map<String, Object> schema, Object v, String at, List<String> out) {
    if (schema.containsKey("$ref")) {
      String ref = (String) schema.get("$ref");
      Map<String, Object> defs = (Map<String, Object>) root.get("$defs");
      check((Map<String, Object>) defs.get(ref.substring("#/$defs/".length())), v, at, out);
    }
    if (schema.containsKey("type") && !typeMatches(schema.get("type"), v)) {
      out.add(at + ": expected type " + schema.get("type") + ", got " + (v == null ? "null" : v.getClass().getSimpleName()));
      return;
    }
    if (schema.containsKey("const") && !String.valueOf(schema.get("const")).equals(String.valueOf(v))) {
      out.add(at + ": must be " + schema.get("const"));
    }
    if (schema.containsKey("enum") && !((List<Object>) schema.get("enum")).contains(v)) {
      out.add(at + ": must be one of " + schema.get("enum"));
    }
    if (v instanceof String s) {
      if (schema.containsKey("pattern") && !Pattern.compile((String) schema.get("pattern")).matcher(s).find()) {
        out.add(at + ": '" + s + "' does not match " + schema.get("pattern"));
      }
      if (schema.containsKey("minLength") && s.length() < ((Number) schema.get("minLength")).intValue()) {
        out.add(at + ": too short");
      }
      if (schema.containsKey("maxLength") && s.length() > ((Number) schema.get("maxLength")).intValue()) {
        out.add(at + ": too long");
      }
    }
    if (v instanceof Number n) {
      double d = n.doubleValue();
      if (schema.containsKey("minimum") && d < ((Number) schema.get("minimum")).doubleValue()) {
        out.add(at + ": below minimum");
      }
      if (schema.containsKey("maximum") && d > ((Number) schema.get("maximum")).doubleValue()) {
        out.add(at + ": above maximum");
      }
      if (schema.containsKey("exclusiveMinimum") && d <= ((Number) schema.get("exclusiveMinimum")).doubleValue()) {
        out.add(at + ": not above exclusiveMinimum");
      }
    }
    if (v instanceof List<?> list) {
      if (schema.containsKey("minItems") && list.size() < ((Number) schema.get("minItems")).intValue()) {
        out.add(at + ": too few items");
      }
      if (Boolean.TRUE.equals(schema.get("uniqueItems")) && new HashSet<>(list).size() != list.size()) {
        out.add(at + ": items repeat");
      }
      if (schema.containsKey("items")) {
        for (int i = 0; i < list.size(); i++) {
          check((Map<String, Object>) schema.get("items"), list.get(i), at + "[" + i + "]", out);
        }
      }
    }
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> props = (Map<String, Object>) schema.getOrDefault("properties", Map.of());
      for (Object req : (List<Object>) schema.getOrDefault("required", List.of())) {
        if (!map.containsKey(req)) {
          out.add(at + ": missing " + req);
        }
      }
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = String.valueOf(e.getKey());
        if (props.containsKey(key)) {
          check((Map<String, Object>) props.get(key), e.getValue(), at + "." + key, out);
        } else if (Boolean.FALSE.equals(schema.get("additionalProperties"))) {
          out.add(at + ": unknown key " + key);
        }
      }
    }
    if (schema.containsKey("oneOf")) {
      int matches = 0;
      for (Object alt : (List<Object>) schema.get("oneOf")) {
        List<String> sub = new ArrayList<>();
        check((Map<String, Object>) alt, v, at, sub);
        if (sub.isEmpty()) {
          matches++;
        }
      }
      if (matches != 1) {
        out.add(at + ": matches " + matches + " of the oneOf alternatives, must match exactly 1");
      }
    }
    if (schema.containsKey("anyOf")) {
      boolean any = false;
      for (Object alt : (List<Object>) schema.get("anyOf")) {
        List<String> sub = new ArrayList<>();
        check((Map<String, Object>) alt, v, at, sub);
        any |= sub.isEmpty();
      }
      if (!any) {
        out.add(at + ": matches none of the anyOf alternatives");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static boolean typeMatches(Object type, Object v) {
    if (type instanceof List<?> types) {
      for (Object t : types) {
        if (typeMatches(t, v)) {
          return true;
        }
      }
      return false;
    }
    return switch ((String) type) {
      case "object" -> v instanceof Map;
      case "array" -> v instanceof List;
      case "string" -> v instanceof String;
      case "integer" -> v instanceof Integer || v instanceof Long || v instanceof java.math.BigInteger;
      case "number" -> v instanceof Number;
      case "boolean" -> v instanceof Boolean;
      default -> false;
    };
  }
}
