package org.irmi.sla.internal;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.irmi.sla.ReloadResult;
import org.irmi.sla.Sla;
import org.irmi.sla.SlaError;
import org.irmi.sla.SlaException;
import org.irmi.sla.SlaListener;
import org.irmi.sla.SlaWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SlaWatcher} over one file. The SLA in force is one volatile reference; a poll compares the
 * file's bytes with those seen last (no timestamps, so edits within one clock tick are not missed),
 * parses a changed file completely, and swaps only a valid one in. Polls are serialised by a lock
 * that is never held by {@link #current()}.
 */
public final class FileSlaWatcher implements SlaWatcher {

  private static final Logger LOG = LoggerFactory.getLogger("org.irmi.sla");
  /** The symlink a Kubernetes ConfigMap volume swaps on every update. */
  private static final Path DATA_LINK = Path.of("..data");

  private final Path file;
  private final String name;
  private final List<SlaListener> listeners = new CopyOnWriteArrayList<>();
  private final Object pollLock = new Object();
  private volatile Sla current;
  /** Bytes of the file at the last poll, or null if it could not be read. Guarded by pollLock. */
  private byte[] lastBytes;
  /** The read problem reported at the last poll, to avoid repeating it. Guarded by pollLock. */
  private String lastReadProblem;
  private final WatchService watchService;
  private final Thread thread;

  private FileSlaWatcher(Path file, boolean watch) {
    this.file = file.toAbsolutePath();
    this.name = file.getFileName().toString();
    byte[] bytes = read();
    if (bytes == null) {
      throw new SlaException(List.of(new SlaError(name, 1, 1, "", "file not found or unreadable: " + file)));
    }
    this.current = Sla.parse(new String(bytes, StandardCharsets.UTF_8), name);
    this.lastBytes = bytes;
    if (!watch) {
      this.watchService = null;
      this.thread = null;
      return;
    }
    try {
      this.watchService = FileSystems.getDefault().newWatchService();
      this.file.getParent().register(watchService, StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
    } catch (IOException e) {
      throw new IllegalStateException("cannot watch " + this.file.getParent() + ": " + e.getMessage(), e);
    }
    this.thread = new Thread(this::watchLoop, "irmi-sla-watch-" + name);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** A watcher without thread. */
  public static FileSlaWatcher manual(Path file) {
    return new FileSlaWatcher(file, false);
  }

  /** A watcher with a file-system watch thread. */
  public static FileSlaWatcher watching(Path file) {
    return new FileSlaWatcher(file, true);
  }

  @Override
  public Sla current() {
    return current;
  }

  @Override
  public void addListener(SlaListener listener) {
    listeners.add(listener);
  }

  @Override
  public ReloadResult poll() {
    synchronized (pollLock) {
      byte[] bytes;
      String problem;
      try {
        bytes = SlaFileText.read(file);
        problem = null;
      } catch (NoSuchFileException e) {
        bytes = null;
        problem = "file not found: " + file + "; keeping the SLA in force";
      } catch (SlaFileText.TooLargeException e) {
        bytes = null;
        problem = e.getMessage() + "; keeping the SLA in force";
      } catch (IOException e) {
        bytes = null;
        problem = "cannot read " + file + ": " + e.getMessage() + "; keeping the SLA in force";
      }
      if (bytes == null) {
        if (problem.equals(lastReadProblem)) {
          return new ReloadResult(ReloadResult.Outcome.UNCHANGED, current, List.of());
        }
        lastReadProblem = problem;
        lastBytes = null;
        return reject(new SlaException(List.of(new SlaError(name, 1, 1, "", problem))));
      }
      lastReadProblem = null;
      if (Arrays.equals(bytes, lastBytes)) {
        return new ReloadResult(ReloadResult.Outcome.UNCHANGED, current, List.of());
      }
      lastBytes = bytes;
      Sla next;
      try {
        next = Sla.parse(new String(bytes, StandardCharsets.UTF_8), name);
      } catch (SlaException e) {
        return reject(e);
      }
      Sla previous = current;
      if (next.equals(previous)) {
        return new ReloadResult(ReloadResult.Outcome.UNCHANGED, previous, List.of());
      }
      current = next;
      LOG.info("SLA {} reloaded from {}", next.service(), file);
      for (SlaListener l : listeners) {
        try {
          l.onApplied(previous, next);
        } catch (RuntimeException e) {
          LOG.warn("SLA listener {} failed on reload of {}", l, name, e);
        }
      }
      return new ReloadResult(ReloadResult.Outcome.APPLIED, next, List.of());
    }
  }

  private ReloadResult reject(SlaException e) {
    Sla inForce = current;
    LOG.warn("SLA change in {} refused; the SLA in force stays. Errors:\n{}", name, e.getMessage());
    for (SlaListener l : listeners) {
      try {
        l.onRejected(inForce, e);
      } catch (RuntimeException ex) {
        LOG.warn("SLA listener {} failed on a refused reload of {}", l, name, ex);
      }
    }
    return new ReloadResult(ReloadResult.Outcome.REJECTED, inForce, e.errors());
  }

  private byte[] read() {
    try {
      return SlaFileText.read(file);
    } catch (IOException e) {
      return null;
    }
  }

  private void watchLoop() {
    Path fileName = file.getFileName();
    while (true) {
      WatchKey key;
      try {
        key = watchService.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      boolean relevant = false;
      for (WatchEvent<?> event : key.pollEvents()) {
        // the file itself, or a Kubernetes ConfigMap update: the mounted file is a symlink through
        // "..data", and an update renames a new "..data" symlink into place without touching it
        if (event.kind() == StandardWatchEventKinds.OVERFLOW || fileName.equals(event.context())
            || DATA_LINK.equals(event.context())) {
          relevant = true;
        }
      }
      if (relevant) {
        try {
          poll();
        } catch (VirtualMachineError e) {
          // out of memory or stack while reading or parsing: the SLA in force stays, the watch goes on
          LOG.error("SLA reload of {} failed with {}; the SLA in force stays", name, e.toString());
        } catch (RuntimeException | LinkageError | AssertionError e) {
          LOG.warn("SLA reload of {} failed unexpectedly; the SLA in force stays", name, e);
        }
      }
      if (!key.reset()) {
        LOG.warn("stopped watching {}: its directory is no longer accessible", file);
        return;
      }
    }
  }

  @Override
  public void close() {
    if (watchService != null) {
      try {
        watchService.close();
      } catch (IOException e) {
        LOG.debug("closing the watch service of {}", name, e);
      }
      thread.interrupt();
    }
  }
}
