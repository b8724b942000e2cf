/** isolation-points. */
package org.irmi.isolation;
