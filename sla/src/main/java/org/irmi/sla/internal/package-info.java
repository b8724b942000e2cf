/**
 * Implementation of the SLA loader: the node-level binder with positioned error collection
 * ({@code SlaBinder} for the file, its objectives and monitors, {@code IsolationPointsBinder},
 * {@code ActionBinder}, the shared readers of {@code SectionReader}, and {@code Section}), the
 * config constructors' bound checks ({@code Check}), the key lists shared with the JSON Schema test
 * ({@code SlaKeys}), units ({@code Units}), suggestions ({@code Suggest}), the renderer
 * ({@code SlaRenderer}) and the file watcher ({@code FileSlaWatcher}). Not an API.
 */
package org.irmi.sla.internal;
