package org.irmi.bench.daytrader;

import java.io.Serializable;
import java.math.BigDecimal;

/** One ACCOUNT row: balances in currency units with two decimals, times in epoch milliseconds. */
public final class AccountDataBean implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long accountId;
    private final String userId;
    private final long creationDateMillis;
    private final BigDecimal openBalance;
    private final BigDecimal balance;
    private final int loginCount;
    private final int logoutCount;
    private final long lastLoginMillis;

    public AccountDataBean(long accountId, String userId, long creationDateMillis, BigDecimal openBalance,
                           BigDecimal balance, int loginCount, int logoutCount, long lastLoginMillis) {
        this.accountId = accountId;
        this.userId = userId;
        this.creationDateMillis = creationDateMillis;
        this.openBalance = openBalance;
        this.balance = balance;
        this.loginCount = loginCount;
        this.logoutCount = logoutCount;
        this.lastLoginMillis = lastLoginMillis;
    }

    public long getAccountId() { return accountId; }
    public String getUserId() { return userId; }
    public long getCreationDateMillis() { return creationDateMillis; }
    public BigDecimal getOpenBalance() { return openBalance; }
    public BigDecimal getBalance() { return balance; }
    public int getLoginCount() { return loginCount; }
    public int getLogoutCount() { return logoutCount; }
    public long getLastLoginMillis() { return lastLoginMillis; }

    @Override
    public String toString() {
        return "Account[" + accountId + " " + userId + " balance=" + balance + " open=" + openBalance
                + " logins=" + loginCount + " logouts=" + logoutCount + "]";
    }
}
