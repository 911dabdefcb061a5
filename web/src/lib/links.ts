/** Where the report-issue button and the help link point. */
export const IssuesURL = 'https://github.com/burrow-files/burrow/issues/new';
export const HelpURL = 'https://github.com/burrow-files/burrow#readme';
