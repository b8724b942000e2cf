package org.irmi.sla;

/**
 * Told by an {@link SlaWatcher} when a reload applied a new SLA or was refused. Called on the thread
 * that ran {@link SlaWatcher#poll()} (the watcher's own thread for a watching {@code SlaWatcher}); must
 * not block. An exception thrown by a listener is logged and does not stop other listeners.
 */
public interface SlaListener {

  /** A valid changed file is now in force; {@code previous} was in force before. */
  void onApplied(Sla previous, Sla current);

  /** A changed file was invalid; {@code inForce} stays in force. */
  default void onRejected(Sla inForce, SlaException why) {}
}
