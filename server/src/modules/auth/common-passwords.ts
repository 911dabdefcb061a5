/**
 * Passwords too common to accept, compared case-insensitively. A short list of the most used
 * ones: long enough to stop the obvious, short enough to ship inside the server.
 */
const CommonPasswords = new Set(
  `123456 123456789 12345678 password qwerty123 qwerty1 111111 12345 secret 123123 1234567890 1234567
000000 qwerty abc123 password1 iloveyou 11111111 dragon monkey 123321 654321 666666 121212 7777777
1q2w3e4r 1qaz2wsx qwertyuiop 987654321 123qwe zxcvbnm 1q2w3e 112233 sunshine princess football
baseball welcome welcome1 admin admin123 administrator letmein trustno1 passw0rd password123
password1234 password12 qwerty12345 master shadow superman batman michael charlie jennifer jordan
hunter2 starwars whatever freedom computer internet login changeme default changeit letmein123
iloveyou1 loveyou lovely flower hello hello123 test test123 testing guest root toor burrow
filebrowser qazwsxedc asdfghjkl asdfgh zaq12wsx 1234qwer qwer1234 q1w2e3r4t5 q1w2e3r4 aa123456
abcd1234 abcdef abcdefg abcdefgh 12344321 123654 159753 147258369 1111111111 0000000000 999999999
88888888 987654321a a123456789 123456789a password! p@ssw0rd p@ssword pa$$word secret123 mypassword
mustang access killer pepper ginger cookie summer winter spring autumn soccer hockey ranger thomas
daniel andrew joshua matthew tigger purple orange banana chocolate cheese butterfly maggie buster
123456abc qwerty123456 adminadmin rootroot useruser 1234512345 12341234 abc12345 11223344 5201314`
    .split(/\s+/)
    .filter(Boolean),
);

export function isCommonPassword(password: string): boolean {
  return CommonPasswords.has(password.toLowerCase());
}
