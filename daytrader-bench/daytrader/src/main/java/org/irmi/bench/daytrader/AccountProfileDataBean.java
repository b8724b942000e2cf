package org.irmi.bench.daytrader;

import java.io.Serializable;

/** One ACCOUNTPROFILE row. */
public final class AccountProfileDataBean implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String userId;
    private final String password;
    private final String fullName;
    private final String address;
    private final String email;
    private final String creditCard;

    public AccountProfileDataBean(String userId, String password, String fullName, String address,
                                  String email, String creditCard) {
        this.userId = userId;
        this.password = password;
        this.fullName = fullName;
        this.address = address;
        this.email = email;
        this.creditCard = creditCard;
    }

    public String getUserId() { return userId; }
    public String getPassword() { return password; }
    public String getFullName() { return fullName; }
    public String getAddress() { return address; }
    public String getEmail() { return email; }
    public String getCreditCard() { return creditCard; }

    @Override
    public String toString() {
        return "Profile[" + userId + " " + fullName + " " + email + "]";
    }
}
