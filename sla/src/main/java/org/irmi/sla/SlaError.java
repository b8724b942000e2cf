package org.irmi.sla;

/**
 * One error in an SLA file, with its position. {@link #toString()} gives the standard form
 * {@code orders.yaml:14:7: unknown key 'treshold' in isolationPoints.poison (did you mean 'threshold'?)}.
 *
 * @param source the file name (or the source name given to {@link Sla#parse(String, String)})
 * @param line 1-based line
 * @param column 1-based column
 * @param keyPath dotted key path of the offending key or value ({@code isolationPoints.poison.coolDown},
 *     list entries as {@code weights[2]}); empty for file-level errors
 * @param message what is wrong and what to write instead; it names the key path itself
 */
public record SlaError(String source, int line, int column, String keyPath, String message) {

  @Override
  public String toString() {
    return source + ":" + line + ":" + column + ": " + message;
  }
}
