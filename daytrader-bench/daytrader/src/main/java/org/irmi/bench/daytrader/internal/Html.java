package org.irmi.bench.daytrader.internal;

import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.irmi.bench.daytrader.AccountDataBean;
import org.irmi.bench.daytrader.AccountProfileDataBean;
import org.irmi.bench.daytrader.HoldingDataBean;
import org.irmi.bench.daytrader.MarketSummaryDataBean;
import org.irmi.bench.daytrader.OrderDataBean;
import org.irmi.bench.daytrader.QuoteDataBean;

/**
 * The web tier's minimal HTML: one builder per page, escaping every value. Every form that changes
 * state is a POST and carries the session's CSRF token as the hidden field {@code csrf}.
 */
final class Html {
    private final StringBuilder sb = new StringBuilder(2048);
    private final String csrf;

    /**
     * @param userId the signed-in user, or null
     * @param csrf the session's CSRF token for the page's forms, or null without a session
     */
    Html(String title, String userId, String csrf) {
        this.csrf = csrf;
        sb.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>DayTrader: ").append(esc(title))
                .append("</title><style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
                        + "td,th{border:1px solid #ccc;padding:2px 6px}nav a{margin-right:1em}.err{color:#b00}</style></head><body>")
                .append("<nav><b>DayTrader</b> ");
        for (String[] link : new String[][] {{"home", "Home"}, {"account", "Account"}, {"portfolio", "Portfolio"},
                {"quote?symbols=s:0,s:1,s:2,s:3,s:4", "Quotes/Trade"}}) {
            sb.append("<a href=\"/daytrader/").append(link[0]).append("\">").append(link[1]).append("</a>");
        }
        if (userId != null) {
            sb.append(" signed in as <b>").append(esc(userId)).append("</b> ");
            postForm("logout", "display:inline").append("<button>Logoff</button></form>");
        }
        sb.append("</nav><h2>").append(esc(title)).append("</h2>");
    }

    /** Opens a POST form to {@code page} with the session's CSRF token; the caller adds the fields and closes it. */
    private StringBuilder postForm(String page, String style) {
        sb.append("<form action=\"/daytrader/").append(page).append("\" method=\"post\"");
        if (style != null) {
            sb.append(" style=\"").append(style).append('"');
        }
        sb.append('>');
        if (csrf != null) {
            sb.append("<input type=\"hidden\" name=\"csrf\" value=\"").append(esc(csrf)).append("\">");
        }
        return sb;
    }

    Html p(String text) {
        sb.append("<p>").append(esc(text)).append("</p>");
        return this;
    }

    Html error(String text) {
        sb.append("<p class=\"err\">").append(esc(text)).append("</p>");
        return this;
    }

    Html raw(String html) {
        sb.append(html);
        return this;
    }

    Html loginForm() {
        postForm("login", null).append("User <input name=\"uid\" value=\"uid:0\"> Password "
                + "<input name=\"passwd\" type=\"password\" value=\"xxx\"> <button>Log in</button></form>"
                + "<p><a href=\"/daytrader/register\">Register</a> a new user.</p>");
        return this;
    }

    Html registerForm() {
        postForm("register", null).append("<table>");
        for (String[] f : new String[][] {{"uid", "User id"}, {"passwd", "Password"}, {"fullname", "Full name"},
                {"address", "Address"}, {"email", "E-mail"}, {"creditcard", "Credit card"}, {"money", "Opening balance"}}) {
            sb.append("<tr><td>").append(f[1]).append("</td><td><input name=\"").append(f[0]).append("\"")
                    .append("money".equals(f[0]) ? " value=\"10000\"" : "").append("></td></tr>");
        }
        sb.append("</table><button>Register</button></form>");
        return this;
    }

    Html account(AccountDataBean a) {
        sb.append("<table><tr><th>Account</th><td>").append(a.getAccountId()).append("</td><th>User</th><td>")
                .append(esc(a.getUserId())).append("</td></tr><tr><th>Balance</th><td>").append(a.getBalance())
                .append("</td><th>Opening balance</th><td>").append(a.getOpenBalance()).append("</td></tr><tr><th>Logins</th><td>")
                .append(a.getLoginCount()).append("</td><th>Logouts</th><td>").append(a.getLogoutCount()).append("</td></tr></table>");
        return this;
    }

    Html profileForm(AccountProfileDataBean p) {
        sb.append("<h3>Profile</h3>");
        postForm("update", null).append("<table>");
        String[][] fields = {{"fullname", "Full name", p.getFullName()}, {"address", "Address", p.getAddress()},
                {"email", "E-mail", p.getEmail()}, {"creditcard", "Credit card", p.getCreditCard()}};
        for (String[] f : fields) {
            sb.append("<tr><td>").append(f[1]).append("</td><td><input name=\"").append(f[0]).append("\" value=\"")
                    .append(esc(f[2])).append("\"></td></tr>");
        }
        // The password is never sent back to the browser: an empty field keeps it (update's rule for a blank field).
        sb.append("<tr><td>New password</td><td><input name=\"passwd\" type=\"password\" value=\"\""
                + " autocomplete=\"new-password\"> (empty: unchanged)</td></tr></table><button>Update profile</button></form>");
        return this;
    }

    Html orders(List<OrderDataBean> orders, int max) {
        sb.append("<h3>Orders</h3><table><tr><th>id</th><th>status</th><th>type</th><th>symbol</th><th>quantity</th>"
                + "<th>price</th><th>fee</th></tr>");
        for (int i = 0; i < orders.size() && i < max; i++) {
            OrderDataBean o = orders.get(i);
            sb.append("<tr><td>").append(o.getOrderId()).append("</td><td>").append(o.getOrderStatus()).append("</td><td>")
                    .append(o.getOrderType()).append("</td><td>").append(esc(o.getSymbol())).append("</td><td>")
                    .append(o.getQuantity()).append("</td><td>").append(o.getPrice()).append("</td><td>")
                    .append(o.getOrderFee()).append("</td></tr>");
        }
        sb.append("</table>");
        if (orders.size() > max) {
            p((orders.size() - max) + " older orders not shown");
        }
        return this;
    }

    Html holdings(List<HoldingDataBean> holdings, java.util.Map<String, QuoteDataBean> quotes) {
        BigDecimal basis = BigDecimal.ZERO;
        BigDecimal value = BigDecimal.ZERO;
        sb.append("<table><tr><th>holding</th><th>symbol</th><th>quantity</th><th>purchase price</th><th>current price</th>"
                + "<th></th></tr>");
        for (HoldingDataBean h : holdings) {
            QuoteDataBean q = quotes.get(h.getSymbol());
            basis = basis.add(TradeMath.value(h.getPurchasePrice(), h.getQuantity()));
            if (q != null) {
                value = value.add(TradeMath.value(q.getPrice(), h.getQuantity()));
            }
            sb.append("<tr><td>").append(h.getHoldingId()).append("</td><td>").append(esc(h.getSymbol())).append("</td><td>")
                    .append(h.getQuantity()).append("</td><td>").append(h.getPurchasePrice()).append("</td><td>")
                    .append(q == null ? "" : q.getPrice()).append("</td><td>");
            postForm("sell", null).append("<input type=\"hidden\" name=\"holdingID\" value=\"").append(h.getHoldingId())
                    .append("\"><button>sell</button></form></td></tr>");
        }
        sb.append("</table>");
        p(holdings.size() + " holdings, purchase basis " + basis + ", market value " + value);
        return this;
    }

    Html quotes(List<QuoteDataBean> quotes) {
        sb.append("<table><tr><th>symbol</th><th>company</th><th>price</th><th>open</th><th>low</th><th>high</th>"
                + "<th>change</th><th>volume</th><th>buy</th></tr>");
        for (QuoteDataBean q : quotes) {
            sb.append("<tr><td>").append(esc(q.getSymbol())).append("</td><td>").append(esc(q.getCompanyName()))
                    .append("</td><td>").append(q.getPrice()).append("</td><td>").append(q.getOpen()).append("</td><td>")
                    .append(q.getLow()).append("</td><td>").append(q.getHigh()).append("</td><td>")
                    .append(String.format("%.2f", q.getChange())).append("</td><td>").append((long) q.getVolume())
                    .append("</td><td>");
            postForm("buy", null).append("<input type=\"hidden\" name=\"symbol\" value=\"").append(esc(q.getSymbol()))
                    .append("\"><input name=\"quantity\" value=\"100\" size=\"4\"><button>Buy</button></form></td></tr>");
        }
        sb.append("</table><form action=\"/daytrader/quote\">Symbols <input name=\"symbols\" value=\"s:0,s:1\">"
                + " <button>Get quotes</button></form>");
        return this;
    }

    Html marketSummary(MarketSummaryDataBean m) {
        sb.append("<h3>Market summary</h3><p>TSIA ").append(m.getTsia()).append(" (open ").append(m.getOpenTsia())
                .append(String.format(", %+.2f%%", m.getGainPercent())).append("), volume ").append((long) m.getVolume())
                .append("</p><p>Top gainers: ");
        for (QuoteDataBean q : m.getTopGainers()) {
            sb.append(esc(q.getSymbol())).append(' ').append(q.getPrice()).append("; ");
        }
        sb.append("</p><p>Top losers: ");
        for (QuoteDataBean q : m.getTopLosers()) {
            sb.append(esc(q.getSymbol())).append(' ').append(q.getPrice()).append("; ");
        }
        sb.append("</p>");
        return this;
    }

    Html order(OrderDataBean o) {
        sb.append("<p>Order ").append(o.getOrderId()).append(": ").append(o.getOrderType()).append(' ').append(o.getQuantity())
                .append(" x ").append(esc(o.getSymbol())).append(" at ").append(o.getPrice()).append(", fee ")
                .append(o.getOrderFee()).append(", status <b>").append(o.getOrderStatus()).append("</b></p>");
        return this;
    }

    String finish() {
        return sb.append("</body></html>\n").toString();
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    static String url(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
