/** irmi-orb. */
package org.irmi.orb;
