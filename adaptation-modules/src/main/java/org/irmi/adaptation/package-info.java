/** adaptation-modules. */
package org.irmi.adaptation;
