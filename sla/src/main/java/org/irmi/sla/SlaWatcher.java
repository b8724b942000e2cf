package org.irmi.sla;

import java.nio.file.Path;
import org.irmi.sla.internal.FileSlaWatcher;

/**
 * Holds the SLA in force for one file and reloads it when the file changes. A changed file is parsed
 * and validated completely first; only a valid one is swapped in, atomically (one volatile
 * reference), and listeners are told. An invalid file leaves the old SLA in force, and the log (SLF4J
 * logger {@code org.irmi.sla}) gives every error as {@code file:line:col: message}.
 *
 * <pre>{@code
 * try (SlaWatcher w = SlaWatcher.watch(Path.of("orders.yaml"))) {   // file-system watch thread
 *   w.addListener((old, now) -> points.reconfigure(now));
 *   Sla sla = w.current();                                           // cheap volatile read, any thread
 * }
 * SlaWatcher manual = SlaWatcher.open(path);  // no thread: call manual.poll() to check (tests, timers)
 * }</pre>
 *
 * <p>THREAD-SAFE: {@link #current()} from any thread; polls are serialised.
 */
public interface SlaWatcher extends AutoCloseable {

  /** The SLA in force. Never null. */
  Sla current();

  /**
   * Reads the file now; if its content changed since the last poll, validates it and swaps it in or
   * refuses it. Never throws for a bad file; the result says what happened.
   */
  ReloadResult poll();

  /** Adds a listener for later reloads. */
  void addListener(SlaListener listener);

  /** Stops watching (no-op for a manual watcher). */
  @Override
  void close();

  /**
   * Loads {@code file} and returns a watcher without a thread; changes apply only when {@link #poll()}
   * is called.
   *
   * @throws SlaException if the initial file is invalid (there is no old SLA to keep)
   */
  static SlaWatcher open(Path file) {
    return FileSlaWatcher.manual(file);
  }

  /**
   * Loads {@code file} and starts a daemon thread that polls whenever the file system reports a change
   * to the file (a {@link java.nio.file.WatchService} on its directory).
   *
   * @throws SlaException if the initial file is invalid
   */
  static SlaWatcher watch(Path file) {
    return FileSlaWatcher.watching(file);
  }
}
