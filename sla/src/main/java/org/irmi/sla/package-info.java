/** sla. */
package org.irmi.sla;
