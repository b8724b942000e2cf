package org.irmi.sla.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads an SLA file's bytes without trusting its size: at most {@link #MAX_BYTES} are read, so a
 * huge or endless file (a device, a FIFO, a file still growing) cannot take the heap of the
 * process whose SLA it is. One reader for {@code Sla.load} and the watcher.
 */
public final class SlaFileText {

  /** The largest SLA file read: 1 MiB (an SLA is a few hundred lines). */
  public static final int MAX_BYTES = 1024 * 1024;

  /** A file larger than {@link #MAX_BYTES}. */
  public static final class TooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    TooLargeException(Path file) {
      super("file is larger than 1 MiB; an SLA file is a few hundred lines: " + file);
    }
  }

  private SlaFileText() {
  }

  /**
   * The file's bytes.
   *
   * @throws TooLargeException when it holds more than {@link #MAX_BYTES}
   * @throws IOException when it cannot be read ({@link java.nio.file.NoSuchFileException} if absent)
   */
  public static byte[] read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        throw new TooLargeException(file);
      }
      return bytes;
    }
  }
}
