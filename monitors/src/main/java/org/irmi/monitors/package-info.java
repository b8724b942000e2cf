/** monitors. */
package org.irmi.monitors;
